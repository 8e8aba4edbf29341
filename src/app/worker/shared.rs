//! Serde for values a job shares with its page (`Arc`): a worker thread shares them, a Web Worker
//! has its own memory and gets a copy. (Serde's `rc` feature would do the same for every crate
//! in the build.) Use with `#[serde(with = "shared")]`.

use std::sync::Arc;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

pub fn serialize<T: Serialize, S: Serializer>(value: &Arc<T>, serializer: S) -> Result<S::Ok, S::Error> {
    T::serialize(value, serializer)
}

pub fn deserialize<'de, T: Deserialize<'de>, D: Deserializer<'de>>(deserializer: D) -> Result<Arc<T>, D::Error> {
    T::deserialize(deserializer).map(Arc::new)
}

/// The same for an `Option<Arc<T>>`: `#[serde(with = "shared::optional")]`.
pub mod optional {
    use super::*;

    pub fn serialize<T: Serialize, S: Serializer>(value: &Option<Arc<T>>, serializer: S) -> Result<S::Ok, S::Error> {
        value.as_deref().serialize(serializer)
    }

    pub fn deserialize<'de, T: Deserialize<'de>, D: Deserializer<'de>>(
        deserializer: D,
    ) -> Result<Option<Arc<T>>, D::Error> {
        Option::<T>::deserialize(deserializer).map(|value| value.map(Arc::new))
    }
}
