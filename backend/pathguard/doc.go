// Package pathguard resolves a tool's path argument to a canonical path and
// says which root it really lands in: the session workspace, the session
// scratch folder, the session visualization folder, or outside all of them
// (External). Policy decides on the result; pathguard decides nothing else.
//
// Resolution has two layers, applied identically to every root (spec §4,
// §4b, §4b.1):
//
//  1. Lexical: the spelling is cleaned ("." and ".." folded) before the disk
//     is consulted, so "a/missing/../../.." is seen as the escape it is even
//     though "a/missing" does not exist. This layer alone gives
//     Resolved.Lexical, which callers may use only to skip an approval card.
//  2. Canonical: symbolic links in the existing part of the path are
//     resolved, the missing tail is re-attached, and a dangling link is
//     replaced by its target (where a create would land). Resolved.Root is
//     computed from this result only.
//
// Containment compares path components, never string prefixes, so
// /p/proj_evil is not inside /p/proj. On case-insensitive volumes components
// compare case-folded.
//
// Resolving is advisory: the disk can change between Resolve, the approval
// and the operation. The spec therefore resolves again right before
// execution. OpenFile, Stat and WriteFileAtomic do that and then perform the
// operation through an os.Root, so a link swapped in at the last moment
// cannot carry the operation out of its root; see fileops.go for exactly
// what that does and does not guarantee.
package pathguard
