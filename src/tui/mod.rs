//! The reviewer: an Elm-style loop. Input, IO, image and index workers send `Msg`s on one
//! channel; `State::update` is pure and returns effects; `draw::draw` renders the state.

pub mod app;
pub mod config;
pub mod draw;
pub mod edit;
pub mod facts;
pub mod geometry;
pub mod image;
pub mod input;
pub mod keymap;
pub mod laid;
pub mod layout;
pub mod locate;
pub mod overlays;
pub mod palette;
pub mod remap;
pub mod summary;
pub mod text;
pub mod theme;
pub mod views;
pub mod worker;
pub mod wrap;

mod run;
mod start;
mod terminal;
mod threads;

use std::path::PathBuf;

use image::ProtocolChoice;

pub use run::run;
// `worker::run_fold` (the fold after exit) logs to the same file.
use threads::init_log;

/// How the reviewer was asked to start.
#[derive(Debug, Clone)]
pub struct Options {
    pub file: PathBuf,
    pub reviewer: Option<String>,
    pub image_protocol: Option<ProtocolChoice>,
    pub theme: Option<String>,
    pub blind: bool,
    /// Start at this item (number or id) instead of the resume position.
    pub start: Option<String>,
}
