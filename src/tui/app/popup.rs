//! A popup a benchmark's view opens over the item (a grade's popups: a penalty's text, a
//! reject's reason, a fix). The state holds it without knowing what it is: the view that
//! opened it finds it by its type (`Mode::popup`), handles its keys (`View::popup_key`)
//! and draws it (`View::draw_popup`), as helix's compositor holds its layers.

use std::any::Any;
use std::fmt::Debug;

use crate::tui::edit::TextEdit;
use crate::tui::keymap::Context;

/// What the state asks of a view's popup.
pub trait Popup: Debug + 'static {
    /// Its key table.
    fn keys(&self) -> Context;

    /// The text field being edited, if it has one (it takes letters, pasted text, Alt-b
    /// and Alt-f).
    fn field(&mut self) -> Option<&mut TextEdit> {
        None
    }

    /// Has it a text field ([`Popup::field`])?
    fn has_field(&self) -> bool {
        false
    }
}

/// A popup kept in `Mode::Popup`: any [`Popup`] that can be copied and compared.
trait Held: Popup {
    fn clone_box(&self) -> Box<dyn Held>;
    fn eq_box(&self, other: &dyn Held) -> bool;
    fn as_any(&self) -> &dyn Any;
    fn as_any_mut(&mut self) -> &mut dyn Any;
}

impl<T: Popup + Clone + PartialEq> Held for T {
    fn clone_box(&self) -> Box<dyn Held> {
        Box::new(self.clone())
    }

    fn eq_box(&self, other: &dyn Held) -> bool {
        other.as_any().downcast_ref::<T>() == Some(self)
    }

    fn as_any(&self) -> &dyn Any {
        self
    }

    fn as_any_mut(&mut self) -> &mut dyn Any {
        self
    }
}

/// The popup on screen (`Mode::Popup`).
#[derive(Debug)]
pub struct AnyPopup(Box<dyn Held>);

impl AnyPopup {
    pub fn new<T: Popup + Clone + PartialEq>(p: T) -> AnyPopup {
        AnyPopup(Box::new(p))
    }

    /// The popup, if it is a `T`.
    pub fn get<T: Popup>(&self) -> Option<&T> {
        self.0.as_any().downcast_ref()
    }

    pub fn get_mut<T: Popup>(&mut self) -> Option<&mut T> {
        self.0.as_any_mut().downcast_mut()
    }

    pub fn keys(&self) -> Context {
        self.0.keys()
    }

    pub fn field(&mut self) -> Option<&mut TextEdit> {
        self.0.field()
    }

    pub fn has_field(&self) -> bool {
        self.0.has_field()
    }
}

impl Clone for AnyPopup {
    fn clone(&self) -> AnyPopup {
        AnyPopup(self.0.clone_box())
    }
}

impl PartialEq for AnyPopup {
    fn eq(&self, other: &AnyPopup) -> bool {
        self.0.eq_box(other.0.as_ref())
    }
}

/// A popup that is one text field with the key table `$keys` (a penalty, a reject's few
/// words, a text question's answer): `text_popup!(/// doc, PenaltyPopup, KEYS);`.
macro_rules! text_popup {
    ($(#[$doc:meta])* $name:ident, $keys:expr) => {
        $(#[$doc])*
        #[derive(Debug, Clone, PartialEq)]
        pub struct $name(pub $crate::tui::edit::TextEdit);

        impl $crate::tui::app::Popup for $name {
            fn keys(&self) -> $crate::tui::keymap::Context {
                $keys
            }

            fn field(&mut self) -> Option<&mut $crate::tui::edit::TextEdit> {
                Some(&mut self.0)
            }

            fn has_field(&self) -> bool {
                true
            }
        }
    };
}
pub(crate) use text_popup;
