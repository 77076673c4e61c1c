//! Files a skill folder carries that no one can read in review: archives and native
//! executables. Named by their extension, or (for a file without one that the walk saw with an
//! executable bit) by their first bytes. SK022 reports the ones nothing in the skill names.

/// What an opaque file is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum BundleKind {
    /// A compressed or packed archive (`.zip`, `.tar.gz`, `.jar`, ...).
    Archive,
    /// A native program or library (`.exe`, `.dll`, `.so`, `.dylib`, or an ELF, Mach-O or PE
    /// file without an extension).
    Executable,
}

impl BundleKind {
    pub fn noun(self) -> &'static str {
        match self {
            BundleKind::Archive => "an archive",
            BundleKind::Executable => "a native executable",
        }
    }
}

/// An opaque file in a skill folder that nothing in the skill names.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct BundledFile {
    /// The skill folder, relative to the lint root (`""` for the root), as units name folders.
    pub skill_dir: String,
    /// The file, relative to the skill folder, `/`-separated.
    pub path: String,
    pub kind: BundleKind,
}

/// A file the walk found that may be opaque: sure by its extension, or to be confirmed by its
/// first bytes (an extensionless file with an executable bit).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Candidate {
    /// Relative to the lint root, `/`-separated.
    pub rel_path: String,
    pub abs_path: std::path::PathBuf,
    /// `None`: an extensionless executable whose first bytes decide.
    pub kind: Option<BundleKind>,
}

const ARCHIVES: [&str; 24] = [
    ".zip", ".tar", ".tgz", ".tar.gz", ".tar.bz2", ".tbz2", ".tar.xz", ".txz", ".tar.zst", ".gz",
    ".bz2", ".xz", ".zst", ".7z", ".rar", ".jar", ".war", ".whl", ".egg", ".deb", ".rpm", ".msi",
    ".dmg", ".nupkg",
];

const EXECUTABLES: [&str; 5] = [".exe", ".dll", ".so", ".dylib", ".scr"];

/// What a file name says the file is, when it names an archive or a native executable (the
/// extension compared without case).
pub fn kind_by_name(file_name: &str) -> Option<BundleKind> {
    let lower = file_name.to_ascii_lowercase();
    let ends = |list: &[&str]| {
        list.iter()
            .any(|ext| lower.len() > ext.len() && lower.ends_with(ext))
    };
    if ends(&ARCHIVES) {
        Some(BundleKind::Archive)
    } else if ends(&EXECUTABLES) {
        Some(BundleKind::Executable)
    } else {
        None
    }
}

/// Whether a file's first bytes are those of a native program: ELF, Mach-O (either byte order,
/// 32 or 64 bits, or universal) or a DOS/PE `MZ` header.
pub fn is_native_program(head: &[u8]) -> bool {
    const MAGICS: [&[u8]; 7] = [
        b"\x7fELF",
        b"\xfe\xed\xfa\xce",
        b"\xfe\xed\xfa\xcf",
        b"\xce\xfa\xed\xfe",
        b"\xcf\xfa\xed\xfe",
        b"\xca\xfe\xba\xbe",
        b"MZ",
    ];
    MAGICS.iter().any(|magic| head.starts_with(magic))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_first_bytes_say_what_is_opaque() {
        assert_eq!(kind_by_name("Archive.zip"), Some(BundleKind::Archive));
        assert_eq!(kind_by_name("tool.TAR.GZ"), Some(BundleKind::Archive));
        assert_eq!(kind_by_name("helper.exe"), Some(BundleKind::Executable));
        assert_eq!(kind_by_name("libfast.so"), Some(BundleKind::Executable));
        // A name that is only the extension, and text files, are not.
        assert_eq!(kind_by_name(".zip"), None);
        assert_eq!(kind_by_name("deploy.sh"), None);
        assert_eq!(kind_by_name("notes.md"), None);
        assert!(is_native_program(b"\x7fELF\x02\x01"));
        assert!(is_native_program(b"\xcf\xfa\xed\xfe\x07"));
        assert!(is_native_program(b"MZ\x90\x00"));
        assert!(!is_native_program(b"#!/bin/sh\n"));
        assert!(!is_native_program(b""));
    }
}
