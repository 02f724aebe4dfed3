//! Inline images: protocol choice, decode/scale/encode worker threads with caches, the
//! widgets that draw a ready image or a placeholder, and "open in the system viewer".
//!
//! Drawing goes through ratatui-image's encoders. Nothing here ever waits for the
//! terminal: `auto` starts with half-blocks and the terminal's answer to
//! [`probe_query`] (read by the input reader, whenever it comes) upgrades the worker
//! through [`ImageHandle::reconfigure`]. Decoding, scaling and encoding happen on the
//! [`ImageWorker`]'s threads only (the next item's image is decoded on a thread of its
//! own, cancellably); the UI thread just renders a ready [`Protocol`](ratatui_image::protocol::Protocol).
//!
//! Inside tmux, graphics sequences are wrapped in tmux's DCS passthrough, and
//! `allow-passthrough` is switched on only while such a protocol is in use
//! ([`TmuxPassthrough`]), then put back. tmux keeps nothing of a sixel or iTerm2
//! picture sent that way: [`watch_pane`] follows the pane's position and visibility so
//! the picture is placed in the pane and drawn again when tmux redraws it.

mod decode;
mod encoder;
mod lru;
mod protocol;
#[cfg(test)]
mod tests;
mod threads;
mod tmux;
mod viewer;
mod widget;
mod worker;

pub use decode::*;
pub use protocol::*;
pub use tmux::*;
pub use viewer::*;
pub use widget::*;
pub use worker::*;
