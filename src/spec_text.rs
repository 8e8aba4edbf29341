//! The compact text form all run specs share: `name[:item,item,...]`, each item a bare word
//! (`octile`, `8conn`, `3`) or `key=value` (`w=1.5`). Specs serialize as this text, so a saved
//! scene stays readable and every value read back goes through the same validation.

use std::str::FromStr;

use crate::text::quote;

/// A spec's text split into its name and items, consumed by the spec's parser; items left over
/// are errors.
pub struct SpecText<'a> {
    text: &'a str,
    pub name: &'a str,
    items: Vec<(&'a str, Option<&'a str>)>,
    /// The options the spec's parser asked for, to list when an item is unknown.
    offered: Vec<String>,
}

impl<'a> SpecText<'a> {
    pub fn parse(text: &'a str) -> Result<Self, String> {
        let text = text.trim();
        let (name, rest) = text.split_once(':').unwrap_or((text, ""));
        if name.is_empty() {
            return Err("empty spec".to_string());
        }
        let mut items = Vec::new();
        for item in rest.split(',').map(str::trim).filter(|item| !item.is_empty()) {
            items.push(match item.split_once('=') {
                Some((key, value)) => (key.trim(), Some(value.trim())),
                None => (item, None),
            });
        }
        Ok(Self { text, name, items, offered: Vec::new() })
    }

    /// Whether the bare word `word` is there (taken).
    pub fn flag(&mut self, word: &str) -> bool {
        self.offered.push(word.to_string());
        let found = self.items.iter().position(|&(k, v)| k == word && v.is_none());
        found.map(|i| self.items.remove(i)).is_some()
    }

    /// The first of `words` given bare, if any (taken).
    pub fn one_of<const N: usize>(&mut self, words: [&'a str; N]) -> Option<&'a str> {
        self.offered.extend(words.iter().map(|word| word.to_string()));
        let found = self.items.iter().position(|&(k, v)| v.is_none() && words.contains(&k));
        found.map(|i| self.items.remove(i).0)
    }

    /// The next bare word not taken so far (taken).
    pub fn bare(&mut self) -> Option<&'a str> {
        let found = self.items.iter().position(|&(_, v)| v.is_none());
        found.map(|i| self.items.remove(i).0)
    }

    /// The value of `key=...`, parsed (taken).
    pub fn value<T: FromStr>(&mut self, key: &str) -> Result<Option<T>, String> {
        self.offered.push(format!("{key}=..."));
        let Some(i) = self.items.iter().position(|&(k, v)| k == key && v.is_some()) else { return Ok(None) };
        let value = self.items.remove(i).1.unwrap_or_default();
        value.parse().map(Some).map_err(|_| {
            format!("'{}' in '{}' is not a valid value", quote(&format!("{key}={value}")), quote(self.text))
        })
    }

    /// Fails on the first item nobody took, then on `value`'s own check (naming the text);
    /// else gives `value`.
    pub fn done<T>(self, value: T, check: impl FnOnce(&T) -> Result<(), String>) -> Result<T, String> {
        let text = self.text;
        self.finish()?;
        check(&value).map_err(|e| format!("{}: {e}", quote(text)))?;
        Ok(value)
    }

    /// Fails on the first item nobody took, listing the options the spec takes.
    fn finish(self) -> Result<(), String> {
        let item = match self.items.first() {
            None => return Ok(()),
            Some((key, Some(value))) => format!("{key}={value}"),
            Some((word, None)) => word.to_string(),
        };
        let takes = match self.offered.as_slice() {
            [] => format!("{} takes no options", self.name),
            offered => {
                let mut listed: Vec<&str> = Vec::new();
                for option in offered {
                    if !listed.contains(&option.as_str()) {
                        listed.push(option);
                    }
                }
                format!("{} takes {}", self.name, listed.join(", "))
            }
        };
        Err(format!("unknown option '{}' in '{}': {takes}", quote(&item), quote(self.text)))
    }
}

/// Writes `name`, then `:` and the items if there are any.
pub fn write(f: &mut std::fmt::Formatter<'_>, name: &str, items: &[String]) -> std::fmt::Result {
    match items {
        [] => write!(f, "{name}"),
        items => write!(f, "{name}:{}", items.join(",")),
    }
}

/// Serializes a type as its `Display` text and reads it back through `FromStr`.
#[macro_export]
macro_rules! serde_as_text {
    ($type:ty) => {
        impl serde::Serialize for $type {
            fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serializer.collect_str(self)
            }
        }

        impl<'de> serde::Deserialize<'de> for $type {
            fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                let text = <String as serde::Deserialize>::deserialize(deserializer)?;
                text.parse().map_err(serde::de::Error::custom)
            }
        }
    };
}
