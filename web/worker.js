// searchlab's long jobs, off the page (web/src/workers.rs): the page posts its compiled wasm
// module and one encoded request; this worker instantiates the module and runs the request.
import init, { worker_entry } from "./searchlab_web.js";

self.onmessage = async ({ data }) => {
  await init({ module_or_path: data.module });
  worker_entry(data.request);
};
