from truco.cli import main

raise SystemExit(main())
