//! The global allocator.

// Parsing many small files is allocation-heavy; mimalloc cut the 5,000-skill benchmark's malloc
// share from about a quarter of all instructions and keeps per-thread heaps from contending.
// Built without transparent huge pages (Cargo.toml: `no_thp`): a 2 MiB page is cleared whole on
// first touch, which cost more than the faults it saves and raised peak memory by half.
#[global_allocator]
static GLOBAL: MiMalloc = MiMalloc;

/// mimalloc through its plain entry points. The `mimalloc` crate sends every request through
/// the aligned ones, whose alignment checks and fallback paths were a third of the allocator's
/// instructions; nearly every Rust allocation asks for 8 bytes of alignment or less, which every
/// mimalloc block has (its size classes are multiples of the word size).
struct MiMalloc;

/// The alignment every mimalloc block has.
const WORD: usize = std::mem::size_of::<usize>();

// SAFETY: each method forwards to the mimalloc function with the same contract (aligned variants
// when the layout asks for more than a word); blocks from any of them may be freed by `mi_free`.
unsafe impl std::alloc::GlobalAlloc for MiMalloc {
    #[inline]
    unsafe fn alloc(&self, layout: std::alloc::Layout) -> *mut u8 {
        if layout.align() <= WORD {
            unsafe { libmimalloc_sys::mi_malloc(layout.size()).cast() }
        } else {
            unsafe { libmimalloc_sys::mi_malloc_aligned(layout.size(), layout.align()).cast() }
        }
    }

    #[inline]
    unsafe fn alloc_zeroed(&self, layout: std::alloc::Layout) -> *mut u8 {
        if layout.align() <= WORD {
            unsafe { libmimalloc_sys::mi_zalloc(layout.size()).cast() }
        } else {
            unsafe { libmimalloc_sys::mi_zalloc_aligned(layout.size(), layout.align()).cast() }
        }
    }

    #[inline]
    unsafe fn dealloc(&self, ptr: *mut u8, _layout: std::alloc::Layout) {
        unsafe { libmimalloc_sys::mi_free(ptr.cast()) }
    }

    #[inline]
    unsafe fn realloc(&self, ptr: *mut u8, layout: std::alloc::Layout, new_size: usize) -> *mut u8 {
        if layout.align() <= WORD {
            unsafe { libmimalloc_sys::mi_realloc(ptr.cast(), new_size).cast() }
        } else {
            unsafe {
                libmimalloc_sys::mi_realloc_aligned(ptr.cast(), new_size, layout.align()).cast()
            }
        }
    }
}
