package synth

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// Format is an input format of specifications.
type Format uint8

// The formats Parse reads.
const (
	FormatUnknown Format = iota
	FormatSlugsin
	FormatStructuredSlugs
	FormatTLSF
)

func (f Format) String() string {
	switch f {
	case FormatSlugsin:
		return "slugsin"
	case FormatStructuredSlugs:
		return "structuredslugs"
	case FormatTLSF:
		return "tlsf"
	}
	return "unknown"
}

// FormatOf returns the format a file name's extension names: .slugsin,
// .structuredslugs or .tlsf.
func FormatOf(name string) Format {
	switch strings.ToLower(filepath.Ext(name)) {
	case ".slugsin":
		return FormatSlugsin
	case ".structuredslugs":
		return FormatStructuredSlugs
	case ".tlsf":
		return FormatTLSF
	}
	return FormatUnknown
}

// ParseFormat returns the Format named s ("slugsin", "structuredslugs",
// "tlsf").
func ParseFormat(s string) (Format, error) {
	for _, f := range []Format{FormatSlugsin, FormatStructuredSlugs, FormatTLSF} {
		if strings.EqualFold(s, f.String()) {
			return f, nil
		}
	}
	return FormatUnknown, fmt.Errorf("synth: unknown format %q (want slugsin, structuredslugs or tlsf)", s)
}

// Parse reads a specification in the given format; name is used in
// positions.
func Parse(name string, format Format, r io.Reader) (*Spec, error) {
	switch format {
	case FormatSlugsin:
		return ParseSlugsin(name, r)
	case FormatStructuredSlugs:
		return ParseStructuredSlugs(name, r)
	case FormatTLSF:
		return ParseTLSF(name, r)
	}
	return nil, errorf(Pos{File: name}, ErrUnsupported, "unknown specification format (want a .slugsin, .structuredslugs or .tlsf file)")
}

// ParseFile reads the specification in path, choosing the format by its
// extension.
func ParseFile(path string) (*Spec, error) {
	format := FormatOf(path)
	if format == FormatUnknown {
		return nil, errorf(Pos{File: path}, ErrUnsupported, "unknown specification format (want a .slugsin, .structuredslugs or .tlsf file)")
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return Parse(path, format, f)
}
