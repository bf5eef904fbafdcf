package annotate

// This file finds where the atoms of a formula are written, which the
// formula itself does not record: errors about an atom point at it, and
// Lint counts the props a spec mentions even when its formula does not
// parse.

// An atomUse is the first occurrence of an atom in a formula's source.
type atomUse struct {
	name    string // the atom's name: the identifier, or the quoted text unescaped
	quoted  bool
	off     int  // byte offset in the source: the identifier, or the opening quote
	escaped bool // the quoted text had escapes, so its offsets are shifted
}

// scanAtoms returns the first occurrence of each distinct atom (by name and
// quotedness) in src, in source order, as the formula lexer reads them:
// identifiers [A-Za-z_][A-Za-z0-9_.]* that are not keywords, and
// double-quoted text with \" and \\ escapes. It never fails: malformed
// text is skipped.
func scanAtoms(src string) []atomUse {
	var uses []atomUse
	type key struct {
		name   string
		quoted bool
	}
	seen := map[key]bool{}
	add := func(u atomUse) {
		k := key{u.name, u.quoted}
		if !seen[k] {
			seen[k] = true
			uses = append(uses, u)
		}
	}
	for i := 0; i < len(src); {
		c := src[i]
		switch {
		case c == '"':
			var text []byte
			escaped := false
			j := i + 1
			for j < len(src) && src[j] != '"' {
				if src[j] == '\\' && j+1 < len(src) {
					escaped = true
					j++
				}
				text = append(text, src[j])
				j++
			}
			if j < len(src) && len(text) > 0 {
				add(atomUse{name: string(text), quoted: true, off: i, escaped: escaped})
			}
			i = j + 1
		case isIdentStart(c):
			j := i + 1
			for j < len(src) && (isIdentStart(src[j]) || isDigit(src[j]) || src[j] == '.') {
				j++
			}
			if word := src[i:j]; isAtomWord(word) {
				add(atomUse{name: word, off: i})
			}
			i = j
		default:
			i++
		}
	}
	return uses
}
