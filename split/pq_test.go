package split
import ("testing";"context";"fmt";"time")
func TestBigMux(t *testing.T) {
	for _, n := range []int{32, 64} {
		p := muxSem(n, false, false)
		t0 := time.Now(); c0 := cpuTime()
		res, err := Check(context.Background(), p, mutex(p, 2), Options{})
		if err != nil { t.Fatal(err) }
		fmt.Printf("N=%d %v wall %v cpu %v refs=%d %v\n", n, res.Verdict, time.Since(t0), cpuTime()-c0, res.Refinements, res.Exposed)
	}
}
