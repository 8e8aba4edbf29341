//! The page's fonts: egui's own two (Ubuntu Light for text, Hack for code), cut by `web/build.sh`
//! to the scripts and symbols lessons are written in (Latin, Greek, punctuation, arrows,
//! mathematical operators, box drawing, shapes) and without hinting, which egui's renderer does
//! not use. They were a third of the gzipped bundle; a character outside the cut shows as a box.

use std::sync::Arc;

use egui::{FontData, FontDefinitions, FontFamily, FontTweak};

const TEXT: &[u8] = include_bytes!(concat!(env!("SEARCHLAB_WEB_FONTS"), "/Ubuntu-Light.ttf"));
const CODE: &[u8] = include_bytes!(concat!(env!("SEARCHLAB_WEB_FONTS"), "/Hack-Regular.ttf"));

/// egui's default fonts and families, with the cut fonts in place of the whole ones.
pub fn install(ctx: &egui::Context) {
    let mut fonts = FontDefinitions::empty();
    fonts.font_data.insert("Hack".to_owned(), Arc::new(FontData::from_static(CODE)));
    fonts.font_data.insert("Ubuntu-Light".to_owned(), Arc::new(FontData::from_static(TEXT)));
    // egui's own icons (as egui sizes them), which no text font has.
    let icons =
        FontData::from_static(epaint_default_fonts::EGUI_ICONS).tweak(FontTweak { scale: 0.9, ..Default::default() });
    fonts.font_data.insert("egui-icons".to_owned(), Arc::new(icons));
    let family = |names: &[&str]| names.iter().map(|name| (*name).to_owned()).collect();
    fonts.families.insert(FontFamily::Monospace, family(&["Hack", "Ubuntu-Light", "egui-icons"]));
    fonts.families.insert(FontFamily::Proportional, family(&["Ubuntu-Light", "egui-icons"]));
    ctx.set_fonts(fonts);
}
