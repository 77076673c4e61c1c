//! Regular expressions run on untrusted text with bounded work: what organisation policies'
//! `matches` and the `pattern` keyword of the JSON Schemas in a repository both use.
//!
//! A pattern is compiled to an NFA of at most [`SIZE_LIMIT`] bytes and runs on a lazy DFA whose
//! cache is small and which gives up when it keeps rebuilding states instead of reading text
//! (`a[ab]{1000}c` has 2^1000 states: a general engine falls back to simulating the NFA, 1,000
//! states per byte, ten seconds on a megabyte). When the DFA gives up (or cannot run: a Unicode
//! `\b` on non-ASCII text), the NFA simulation runs only when the caller's budget covers the
//! text's length times the pattern's states; otherwise the call says how many steps it needed.

use regex_automata::hybrid::dfa::{Cache, DFA};
use regex_automata::nfa::thompson::{self, pikevm::PikeVM, NFA};
use regex_automata::Input;
use std::cell::RefCell;

/// A pattern's NFA may take at most this many bytes.
pub const SIZE_LIMIT: usize = 256 << 10;
/// The lazy DFA's state cache, per pattern.
const DFA_CACHE: usize = 256 << 10;

/// A compiled pattern with its matching caches (one thread's: not `Sync`).
pub struct Bounded {
    dfa: DFA,
    cache: RefCell<Cache>,
    pikevm: PikeVM,
    pike_cache: RefCell<regex_automata::nfa::thompson::pikevm::Cache>,
    states: u64,
}

impl std::fmt::Debug for Bounded {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Bounded")
            .field("states", &self.states)
            .finish_non_exhaustive()
    }
}

impl Bounded {
    /// Compiles `pattern` (the regex crate's syntax); `Err`: why it cannot be (invalid, or over
    /// the size limit).
    pub fn new(pattern: &str) -> Result<Bounded, String> {
        let nfa = NFA::compiler()
            .configure(
                thompson::Config::new()
                    .nfa_size_limit(Some(SIZE_LIMIT))
                    .shrink(false),
            )
            .build(pattern)
            .map_err(|e| e.to_string())?;
        let dfa = DFA::builder()
            .configure(
                DFA::config()
                    .cache_capacity(DFA_CACHE)
                    .skip_cache_capacity_check(true)
                    .minimum_cache_clear_count(Some(3))
                    .minimum_bytes_per_state(Some(10))
                    .unicode_word_boundary(true),
            )
            .build_from_nfa(nfa.clone())
            .map_err(|e| e.to_string())?;
        let pikevm = PikeVM::new_from_nfa(nfa.clone()).map_err(|e| e.to_string())?;
        Ok(Bounded {
            cache: RefCell::new(dfa.create_cache()),
            pike_cache: RefCell::new(pikevm.create_cache()),
            dfa,
            pikevm,
            states: nfa.states().len() as u64,
        })
    }

    /// Whether `text` holds a match. `budget`: the NFA-simulation steps the caller still allows,
    /// lowered by what this call spends; `Err(steps)`: the DFA gave up and the simulation would
    /// take `steps`, more than the budget (nothing is spent).
    pub fn is_match(&self, text: &str, budget: &mut u64) -> Result<bool, u64> {
        let input = Input::new(text).earliest(true);
        let found = {
            let mut cache = self.cache.borrow_mut();
            self.dfa.try_search_fwd(&mut cache, &input)
        };
        match found {
            Ok(found) => Ok(found.is_some()),
            Err(_) => {
                let steps = (text.len() as u64 + 1).saturating_mul(self.states);
                if steps > *budget {
                    return Err(steps);
                }
                *budget -= steps;
                let mut cache = self.pike_cache.borrow_mut();
                Ok(self.pikevm.is_match(&mut cache, input))
            }
        }
    }
}
