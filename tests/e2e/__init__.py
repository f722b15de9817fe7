"""Browser tests of the web client (Playwright, Debian Chromium)."""
