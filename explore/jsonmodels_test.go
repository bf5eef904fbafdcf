package explore

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestJSONModels explores tests that use encoding/json and encoding/gob
// (model_json.go, model_gob.go): each passes, completely explored, with
// the bytes the real packages print (the test program checks them as
// literals, and passes under go test too).
func TestJSONModels(t *testing.T) {
	for _, test := range []string{
		"TestStructRoundTrip",
		"TestMapKeyOrder",
		"TestMarshalIndent",
		"TestUnmarshalAny",
		"TestSyntaxError",
		"TestCustomMarshalJSON",
		"TestEncoderToBuffer",
		"TestDecoderStream",
		"TestRecursiveAndErrors",
		"TestRawAndHelpers",
		"TestConcurrentEncode",
		"TestGobRoundTrip",
		"TestGobUnicodeName",
		"TestEdgeCases",
		"TestStreamsAndGob",
		"TestMarshalerAndPipe",
		"TestTokens",
		"TestBuffered",
	} {
		t.Run(test, func(t *testing.T) {
			r := exploreTestdata(t, "jsonmodels", test, Options{})
			require.Equal(t, "pass", r.Verdict(), "%v", r.Findings)
			require.True(t, r.Complete, "bound %q", r.Bound)
		})
	}
	t.Run("wrong bytes", func(t *testing.T) {
		r := exploreTestdata(t, "jsonmodels", "FailStructWrong", Options{})
		require.Len(t, r.Findings, 1, "%v", r.Findings)
		f := r.Findings[0]
		assert.Equal(t, KindTestFailure, f.Kind)
		assert.Contains(t, f.Message, `got  {"id":0,"deep":false,"name":"n","price":0.5,"count":"0","note":null}`)
	})
	for test, got := range map[string]string{
		"FailDecoderWrong": "got  {ID:1 Kind:a} [2.5]",
		"FailGobWrong":     "got  {Name:r Score:0 Tags:[] Meta:map[m:2] Inner:<nil>}",
	} {
		t.Run(test, func(t *testing.T) {
			r := exploreTestdata(t, "jsonmodels", test, Options{})
			require.True(t, r.Complete, "bound %q", r.Bound)
			require.Len(t, r.Findings, 1, "%v", r.Findings)
			assert.Equal(t, KindTestFailure, r.Findings[0].Kind)
			assert.Contains(t, r.Findings[0].Message, got)
		})
	}
	for test, msg := range map[string]string{
		"UnsupportedShape":        "encoding/json.Unmarshal: decoding into the non-empty interface fmt.Stringer",
		"UnsupportedGobInterface": "(*encoding/gob.Encoder).Encode: interface values (interface {}) are not modelled",
	} {
		t.Run(test, func(t *testing.T) {
			r := exploreTestdata(t, "jsonmodels", test, Options{})
			require.Len(t, r.Findings, 1, "%v", r.Findings)
			assert.Equal(t, KindUnsupported, r.Findings[0].Kind)
			assert.Equal(t, "unknown", r.Verdict())
			assert.Contains(t, r.Findings[0].Message, msg)
		})
	}
}
