//! "Full screen" when presenting: the app asks its window for it (`ViewportCommand::Fullscreen`),
//! which eframe's web runner leaves undone, so the page asks the browser (the Fullscreen API). The
//! browser grants it only shortly after a click or a key press, as the checkbox's click is.

use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;

use crate::log;

/// Carries out the app's last full-screen request of this pass, if it has one.
pub fn follow(ctx: &egui::Context) {
    let wanted = ctx.viewport(|viewport| {
        viewport.commands.iter().rev().find_map(|command| match command {
            egui::ViewportCommand::Fullscreen(on) => Some(*on),
            _ => None,
        })
    });
    let Some(on) = wanted else { return };
    let Some(document) = web_sys::window().and_then(|window| window.document()) else { return };
    if on == document.fullscreen_element().is_some() {
        return;
    }
    // web-sys drops the promise these return; it says whether the browser agreed.
    let (target, method): (JsValue, _) = if on {
        let Some(page) = document.document_element() else { return };
        (page.into(), "requestFullscreen")
    } else {
        (document.into(), "exitFullscreen")
    };
    let call = js_sys::Reflect::get(&target, &JsValue::from_str(method))
        .and_then(|function| function.dyn_into::<js_sys::Function>())
        .and_then(|function| function.call0(&target))
        .and_then(|promise| promise.dyn_into::<js_sys::Promise>());
    wasm_bindgen_futures::spawn_local(async move {
        match call {
            Ok(promise) => match JsFuture::from(promise).await {
                Ok(_) => log(&format!(r#"{{"event":"full-screen","on":{on}}}"#)),
                Err(why) => web_sys::console::warn_2(&"The browser refused full screen:".into(), &why),
            },
            Err(why) => web_sys::console::warn_2(&"This browser has no full screen for pages:".into(), &why),
        }
    });
}
