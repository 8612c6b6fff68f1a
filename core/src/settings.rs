//! One definition per sense's settings. The `settings!` macro declares a settings struct, its
//! defaults and its field list once; the words that key shared tunings, the snapshot record and
//! the tests' round trips all come from that list, so a new field cannot be forgotten by any of
//! them (a field missed in the interning key would silently share settings between agents).

use crate::math::Vec3;

/// What one settings word holds.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum WordKind {
    /// An `f32` (alone, or one component of a `Vec3`), by its bits.
    Float,
    /// A `u32` (a layer mask).
    Bits,
    /// A `bool`, 0 or 1.
    Flag,
    /// One of a few choices, numbered from 0 below the count.
    Choice(u32),
}

/// A settings struct as plain 32-bit words, in field order: `f32` by its bits, `bool` as 0 / 1,
/// `Vec3` as three `f32`, `u32` as is. Equal words mean identical settings (bit for bit).
pub trait SettingsWords: Sized {
    /// The field names, in order.
    const FIELDS: &'static [&'static str];
    /// Appends every field's words to `out`.
    fn write_words(&self, out: &mut Vec<u32>);
    /// Reads the fields back in order; `None` when the words run out or a `bool` is not 0 or 1.
    fn read_words(words: &mut dyn Iterator<Item = u32>) -> Option<Self>;
    /// What each word holds, in word order (fuzzers and tests change words of one kind).
    fn word_kinds() -> Vec<WordKind>;
    /// All the words of `self`.
    fn words(&self) -> Vec<u32> {
        let mut out = Vec::new();
        self.write_words(&mut out);
        out
    }
}

/// A field type a settings struct may hold.
pub trait SettingsField: Sized {
    /// What each of this type's words holds.
    const KINDS: &'static [WordKind];
    /// Appends this value's words.
    fn push(&self, out: &mut Vec<u32>);
    /// Reads a value back.
    fn take(words: &mut dyn Iterator<Item = u32>) -> Option<Self>;
}

impl SettingsField for f32 {
    const KINDS: &'static [WordKind] = &[WordKind::Float];
    fn push(&self, out: &mut Vec<u32>) {
        out.push(self.to_bits());
    }
    fn take(words: &mut dyn Iterator<Item = u32>) -> Option<Self> {
        words.next().map(f32::from_bits)
    }
}

impl SettingsField for u32 {
    const KINDS: &'static [WordKind] = &[WordKind::Bits];
    fn push(&self, out: &mut Vec<u32>) {
        out.push(*self);
    }
    fn take(words: &mut dyn Iterator<Item = u32>) -> Option<Self> {
        words.next()
    }
}

impl SettingsField for bool {
    const KINDS: &'static [WordKind] = &[WordKind::Flag];
    fn push(&self, out: &mut Vec<u32>) {
        out.push(*self as u32);
    }
    fn take(words: &mut dyn Iterator<Item = u32>) -> Option<Self> {
        match words.next()? {
            0 => Some(false),
            1 => Some(true),
            _ => None,
        }
    }
}

impl SettingsField for Vec3 {
    const KINDS: &'static [WordKind] = &[WordKind::Float; 3];
    fn push(&self, out: &mut Vec<u32>) {
        out.extend(self.to_array().map(f32::to_bits));
    }
    fn take(words: &mut dyn Iterator<Item = u32>) -> Option<Self> {
        Some(Vec3::new(f32::take(words)?, f32::take(words)?, f32::take(words)?))
    }
}

/// Declares a settings struct: its fields with their docs and defaults, once.
macro_rules! settings {
    (
        $(#[$meta:meta])*
        pub struct $name:ident {
            $( $(#[$field_meta:meta])* pub $field:ident : $ty:ty = $default:expr ),* $(,)?
        }
    ) => {
        $(#[$meta])*
        #[derive(Copy, Clone, Debug, PartialEq)]
        pub struct $name {
            $( $(#[$field_meta])* pub $field: $ty, )*
        }

        impl Default for $name {
            fn default() -> Self {
                $name { $( $field: $default, )* }
            }
        }

        impl $crate::settings::SettingsWords for $name {
            const FIELDS: &'static [&'static str] = &[$( stringify!($field) ),*];
            fn write_words(&self, out: &mut Vec<u32>) {
                $( $crate::settings::SettingsField::push(&self.$field, out); )*
            }
            fn read_words(words: &mut dyn Iterator<Item = u32>) -> Option<Self> {
                Some($name { $( $field: $crate::settings::SettingsField::take(words)?, )* })
            }
            fn word_kinds() -> Vec<$crate::settings::WordKind> {
                let mut kinds = Vec::new();
                $( kinds.extend_from_slice(<$ty as $crate::settings::SettingsField>::KINDS); )*
                kinds
            }
        }
    };
}
pub(crate) use settings;
