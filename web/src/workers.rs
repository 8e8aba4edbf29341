//! Long jobs in Web Workers, so the page keeps drawing: each request goes to a module worker
//! (`worker.js`) that instantiated the page's own compiled wasm module and calls [`worker_entry`].
//! A worker shares no memory with the page, so a job cannot be asked to stop: ending a job
//! terminates its worker. One worker is always started ahead of need, as instantiating the
//! module takes a while, so a job starts at once. A session's worker stays between its jobs,
//! running each request posted to it in turn (`worker.js`), its memory kept.

use js_sys::{Array, Object, Reflect, Uint8Array};
use searchlab::app::worker::{self, FromWorker, Place, Reply, Running};
use wasm_bindgen::prelude::*;
use web_sys::{DedicatedWorkerGlobalScope, ErrorEvent, MessageEvent, Worker, WorkerOptions, WorkerType};

/// The worker script beside `index.html` (web/worker.js).
const SCRIPT: &str = "./worker.js";

thread_local! {
    /// The worker the next job takes, started ahead of need.
    static SPARE: std::cell::RefCell<Option<Worker>> = const { std::cell::RefCell::new(None) };
    /// The largest messages posted to a worker and received from one, and the longest the page
    /// took to take one in (for `?test=barca-uct`).
    static LARGEST: std::cell::Cell<Traffic> = const { std::cell::Cell::new(Traffic { sent: 0, received: 0, receive_ms: 0.0 }) };
}

/// The largest messages so far, to and from the workers, in bytes, and the page's longest time
/// taking one in (copying and decoding it), in milliseconds.
#[derive(Clone, Copy)]
pub struct Traffic {
    pub sent: usize,
    pub received: usize,
    pub receive_ms: f64,
}

pub fn traffic() -> Traffic {
    LARGEST.get()
}

fn count(sent: usize, received: usize, receive_ms: f64) {
    let most = LARGEST.get();
    LARGEST.set(Traffic {
        sent: most.sent.max(sent),
        received: most.received.max(received),
        receive_ms: most.receive_ms.max(receive_ms),
    });
}

fn now_ms() -> f64 {
    web_sys::window().and_then(|w| w.performance()).map_or(0.0, |p| p.now())
}

/// From now on the app's jobs run in Web Workers.
pub fn install() {
    match new_worker() {
        Ok(worker) => SPARE.set(Some(worker)),
        Err(error) => web_sys::console::error_1(&error),
    }
    worker::in_web_workers(Box::new(|| {
        let worker = match SPARE.take() {
            Some(worker) => Ok(worker),
            None => new_worker().map_err(|error| could_not_start(&error)),
        };
        SPARE.set(new_worker().map_err(|error| web_sys::console::error_1(&error)).ok());
        let running: Box<dyn Running> = Box::new(InWorker { worker: worker?, handlers: Default::default() });
        Ok(running)
    }));
}

/// Says on the console why, and returns it.
fn could_not_start(error: &JsValue) -> String {
    let why = error.as_string().unwrap_or_else(|| format!("{error:?}"));
    let error = format!("a Web Worker could not start, the job runs in the page: {why}");
    web_sys::console::error_1(&error.as_str().into());
    error
}

type Handlers = (Closure<dyn FnMut(MessageEvent)>, Closure<dyn FnMut(ErrorEvent)>);

struct InWorker {
    worker: Worker,
    /// The running job's message and error handlers, held for as long as the worker may call them.
    handlers: std::cell::RefCell<Option<Handlers>>,
}

impl Running for InWorker {
    fn run(&self, request: Vec<u8>, reply: Reply) -> Result<(), String> {
        self.handlers.replace(Some(listen(&self.worker, reply)));
        post_request(&self.worker, &request).map_err(|error| could_not_start(&error))
    }

    fn end(&self) {
        // Nothing it posted may reach the closures after they are dropped with the job.
        self.worker.set_onmessage(None);
        self.worker.set_onerror(None);
        self.worker.terminate();
    }
}

/// A worker instantiating the page's wasm module (compiled once, by the page).
fn new_worker() -> Result<Worker, JsValue> {
    let options = WorkerOptions::new();
    options.set_type(WorkerType::Module);
    let worker = Worker::new_with_options(SCRIPT, &options)?;
    let message = Object::new();
    Reflect::set(&message, &"module".into(), &wasm_bindgen::module())?;
    worker.post_message(&message)?;
    Ok(worker)
}

/// Hands what `worker` posts to `reply`.
fn listen(worker: &Worker, reply: Reply) -> Handlers {
    let on_failure = reply.clone();
    let on_message = Closure::<dyn FnMut(MessageEvent)>::new(move |event: MessageEvent| {
        let began = now_ms();
        let message = Uint8Array::new(&event.data()).to_vec();
        if let Err(error) = reply.receive(&message) {
            web_sys::console::error_1(&format!("a job in a Web Worker: {error}").into());
        }
        count(0, message.len(), now_ms() - began);
    });
    // The worker died (after a panic its wasm traps); the job ends with the first message in.
    let on_error = Closure::<dyn FnMut(ErrorEvent)>::new(move |event: ErrorEvent| {
        let error = on_failure.fail(&format!("the Web Worker stopped: {}", event.message()));
        web_sys::console::error_1(&error.into());
    });
    worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));
    (on_message, on_error)
}

fn post_request(worker: &Worker, request: &[u8]) -> Result<(), JsValue> {
    count(request.len(), 0, 0.0);
    let message = Object::new();
    let request = Uint8Array::from(request);
    Reflect::set(&message, &"request".into(), &request)?;
    worker.post_message_with_transfer(&message, &Array::of1(&request.buffer()))
}

/// Runs one encoded request inside a Web Worker (called by `worker.js`), posting progress and the
/// answer back to the page.
#[wasm_bindgen]
pub fn worker_entry(request: Uint8Array) {
    let Ok(scope) = js_sys::global().dyn_into::<DedicatedWorkerGlobalScope>() else {
        web_sys::console::error_1(&"worker_entry runs only in a dedicated Web Worker".into());
        return;
    };
    std::panic::set_hook(Box::new(|info| {
        let message = info.payload_as_str().unwrap_or("no message");
        let location = info.location().map(|at| format!(" ({at})")).unwrap_or_default();
        let failed = worker::encode(&FromWorker::Failed(format!("{message}{location}"))).expect("a string encodes");
        if let Ok(scope) = js_sys::global().dyn_into::<DedicatedWorkerGlobalScope>() {
            let _ = post(&scope, failed);
        }
    }));
    // Checked above: this code runs in a WorkerGlobalScope.
    worker::serve(&request.to_vec(), Place::Worker, move |bytes| {
        if let Err(error) = post(&scope, bytes) {
            web_sys::console::error_1(&error);
        }
    });
}

/// Sends bytes to the page, handing over their buffer rather than copying it.
fn post(scope: &DedicatedWorkerGlobalScope, bytes: Vec<u8>) -> Result<(), JsValue> {
    let array = Uint8Array::from(&bytes[..]);
    scope.post_message_with_transfer(&array, &Array::of1(&array.buffer()))
}
