// Package search holds the engines behind the Grep and Glob tools: an
// ignore-aware directory walker, a Glob over it, and a Grep with two
// engines that give the same result: a user-installed ripgrep for patterns
// the in-process searcher would have to match byte by byte, and the
// in-process searcher for the rest and whenever rg is missing or fails
// (see builtinFaster),
// plus the model-facing text for both.
//
// # Which files are visible
//
// Both tools, and both Grep engines, see the same files because the walker
// here reproduces what ripgrep 13+ does when run as
//
//	rg --no-config --no-require-git --no-ignore-global --no-ignore-exclude \
//	   --sort path --glob '!.git' [--glob INCLUDE] -- .
//
// from the search root (see rgArgs; when nothing can stop a search early
// rg runs without --sort path, multi-threaded, and its files are sorted
// into this order in Go, see rgPlan). Concretely:
//
//   - Symlinks are never followed (neither to files nor to directories) and
//     only regular files are searched.
//   - Entries whose name starts with "." are hidden and skipped, unless an
//     ignore file or the include glob whitelists them. ".git" is always
//     skipped.
//   - Ignore files are read in the root, every directory below it, and every
//     ancestor of the root (rg's default "parents" behaviour):
//     .rgignore beats .ignore beats .gitignore; within one kind the deepest
//     directory with a matching line wins, and within one file the last
//     matching line wins (so "!" negations work).
//   - .gitignore applies whether or not the tree is a git repository
//     (--no-require-git: a scratch dir or an unpacked tarball still honours
//     it), but, as in rg, not from directories above the nearest one that
//     holds a ".git" entry. .ignore and .rgignore apply from every ancestor.
//   - The global git excludes file and .git/info/exclude are NOT read
//     (--no-ignore-global, --no-ignore-exclude): they depend on the machine,
//     not on the tree, and would make results differ between users.
//   - The include glob behaves like rg -g: a glob without "/" matches the
//     base name at any depth, one with "/" is anchored at the root, "!"
//     negates, and a match wins over ignore files and hiddenness, exactly as
//     rg's overrides do. When include is a positive glob, files that do not
//     match it are skipped; directories are still descended.
//   - Order is deterministic: entries are visited sorted by name within each
//     directory, depth first, which is the order of fs.WalkDir and of
//     rg --sort path (component-wise: "a/x" sorts before "a-b/x").
//
// Known gaps: Windows' hidden file attribute is not consulted (only the
// leading dot), and .gitignore patterns are matched case-sensitively.
//
// # Which lines match
//
// The pattern is parsed once with Go's regexp/syntax (RE2 syntax) and
// rewritten so that it can never match a line terminator: "\n" is removed
// from every class, "." and classes never match "\r", a literal "\n" is
// rejected, "\A"/"\z" become line anchors, and "$" also matches before the
// "\r" of a CRLF line. The rewritten tree is printed back and handed to rg,
// so rg and the builtin searcher run the same regular expression; "\b" is
// passed as "(?-u:\b)" to keep Go's ASCII word boundary. A UTF-8 BOM is not
// part of the first line (rg strips it too). The builtin engine runs that
// regexp only on the lines holding the pattern's required literal (and not
// at all when the pattern is that literal); with no literal worth a
// prefilter it asks a lazy DFA built from regexp's own program
// (linedfa.go), which answers the same per line.
//
// # Large files
//
// Neither engine searches a file larger than MaxFileBytes (16 MiB, the text
// limit: such a file has no tag): the builtin engine checks the size before
// reading, rg gets --max-filesize and logs what it skips (--debug), and the
// result names every skipped file with its size (GrepResult.Skipped, and a
// notice saying to Read it with offset/limit or search it with Bash), so
// memory stays bounded and a skipped file is never a silent "No matches".
// A huge line in a file within the limit is still reported, clipped: rg
// prints line numbers only (--max-columns 1, parseRgText) and every row is
// built from the file.
//
// Binary files (hashline.IsBinary, or any NUL byte) are never reported: the
// builtin searcher skips them and rg results for them are dropped, so files
// that rg would stop searching at a late NUL cannot make the engines differ.
package search
