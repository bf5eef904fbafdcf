package srcpos

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestString(t *testing.T) {
	assert.Equal(t, "-", Pos{}.String())
	assert.Equal(t, "a.smv", Pos{File: "a.smv"}.String())
	assert.Equal(t, "3:7", Pos{Line: 3, Col: 7}.String())
	assert.Equal(t, "a.smv:3:7", Pos{File: "a.smv", Line: 3, Col: 7}.String())
	assert.False(t, Pos{File: "a.smv"}.IsValid())
	assert.True(t, Pos{Line: 1}.IsValid())
}
