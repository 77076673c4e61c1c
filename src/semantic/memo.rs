//! [`UnitMemo`]: per-unit lists computed on first request by key.

use std::collections::HashMap;

/// Lists that rules of a unit ask for by key: the first to ask computes one, the others share it.
/// A unit is checked on one thread, so a `RefCell` serves. Hashed: a unit of many tools asks for
/// as many keys, and a list searched per key made that quadratic.
#[derive(Debug)]
pub(crate) struct UnitMemo<K, V>(std::cell::RefCell<HashMap<K, std::rc::Rc<[V]>>>);

impl<K, V> Default for UnitMemo<K, V> {
    fn default() -> Self {
        UnitMemo(std::cell::RefCell::new(HashMap::new()))
    }
}

impl<K: Copy + Eq + std::hash::Hash, V> UnitMemo<K, V> {
    /// The list for `key`, computed by `compute` the first time.
    pub(crate) fn get(&self, key: K, compute: impl FnOnce() -> Vec<V>) -> std::rc::Rc<[V]> {
        if let Some(found) = self.0.borrow().get(&key) {
            return std::rc::Rc::clone(found);
        }
        // Computed without holding the borrow, so a computation may itself ask the memo.
        let found: std::rc::Rc<[V]> = compute().into();
        self.0.borrow_mut().insert(key, std::rc::Rc::clone(&found));
        found
    }
}
