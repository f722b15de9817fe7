import { afterEach } from "vitest";

// Between two tests, give the worker's event loop one turn. A file of synchronous tests never
// lets it read its pipe to vitest's main process, so on a loaded machine (a minute of CPU-bound
// markup tests) the answer to a progress report waited unread and vitest's 60 s RPC timer fired
// first ("Timeout calling onTaskUpdate", which fails the run).
afterEach(() => new Promise<void>((resolve) => setTimeout(resolve, 0)));
