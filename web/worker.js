// searchlab's long jobs, off the page (web/src/workers.rs). The page starts a worker ahead of
// need and posts it the wasm module it compiled; the worker instantiates it at once, then runs
// each encoded request the page posts, in turn (a session's worker runs several, its memory kept
// between them).
import init, { worker_entry } from "./searchlab_web.js";

let ready;
self.onmessage = async ({ data }) => {
  if (data.module) {
    ready = init({ module_or_path: data.module });
  } else {
    await ready;
    worker_entry(data.request);
  }
};
