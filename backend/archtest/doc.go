// Package archtest holds tests of the repository's import rules.
package archtest
