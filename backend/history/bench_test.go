package history_test

import (
	"database/sql"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pi-desktop/pi-desktop/backend/history"
)

// benchMessages is the size of history the budget names.
const benchMessages = 100_000

var benchWords = strings.Fields(`the a of to and in is it that for on with as this be are was loader config
	parse error return func struct string int nil err ctx context value file path test build run make go
	module import package type interface method handler server client request response session token
	cache index query table row column insert update delete select commit branch merge rebase diff patch`)

// seedHistory writes n finished messages over 500 sessions the way the
// agent does (insert, then finish), so the triggers build the index. A
// rare word lands in one message in 10,000; a code fragment in one in 100.
func seedHistory(b *testing.B, db *sql.DB, n int) {
	b.Helper()
	tx, err := db.Begin()
	if err != nil {
		b.Fatal(err)
	}
	must := func(_ sql.Result, err error) {
		if err != nil {
			b.Fatal(err)
		}
	}
	must(tx.Exec(`INSERT INTO projects (id, name, path, created_at, updated_at) VALUES ('p', 'p', '/p', 1, 1)`))
	insert, err := tx.Prepare(`INSERT INTO agent_messages (id, session_id, turn_id, role, kind, content, stop_reason, created_at, updated_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`)
	if err != nil {
		b.Fatal(err)
	}
	r := rand.New(rand.NewPCG(1, 2))
	const sessions = 500
	for s := range sessions {
		sid := fmt.Sprintf("s%03d", s)
		must(tx.Exec(`INSERT INTO sessions (id, project_id, title, created_at, updated_at) VALUES (?, 'p', ?, 1, 1)`, sid, "session "+sid))
		must(tx.Exec(`INSERT INTO agent_turns (id, session_id, prompt, state, created_at, updated_at) VALUES (?, ?, '', 'done', 1, 1)`, "t"+sid, sid))
	}
	for i := range n {
		var sb strings.Builder
		for w := range 20 + r.IntN(40) {
			if w > 0 {
				sb.WriteByte(' ')
			}
			sb.WriteString(benchWords[r.IntN(len(benchWords))])
		}
		if i%10_000 == 7 {
			sb.WriteString(" quokka")
		}
		if i%100 == 3 {
			sb.WriteString(" parseConfigFile(ctx, path)")
		}
		sid := fmt.Sprintf("s%03d", i%sessions)
		role, kind, stop := "user", "prompt", ""
		if i%2 == 1 {
			role, kind, stop = "assistant", "model", "end_turn"
		}
		must(insert.Exec(fmt.Sprintf("m%06d", i), sid, "t"+sid, role, kind, blocks(sb.String()), stop, int64(i), int64(i)))
	}
	if err := tx.Commit(); err != nil {
		b.Fatal(err)
	}
}

// BenchmarkSearch100k times searches over 100,000 messages: a rare word, a
// common word, a code fragment and two terms, interleaved for 30 rounds,
// each against the same search run as a LIKE scan of the indexed text.
func BenchmarkSearch100k(b *testing.B) {
	db := openDB(b)
	seedHistory(b, db, benchMessages)
	queries := map[string]string{"rare": "quokka", "common": "loader", "fragment": "onfigFile(ctx", "two-terms": "merge rebase"}
	kinds := slices.Sorted(func(yield func(string) bool) {
		for k := range queries {
			if !yield(k) {
				return
			}
		}
	})
	like := func(q string) (int, error) {
		where, args := []string{}, []any{}
		for _, t := range strings.Fields(q) {
			where, args = append(where, "body LIKE ?"), append(args, "%"+t+"%")
		}
		rows, err := db.Query(`SELECT id FROM search_docs WHERE `+strings.Join(where, " AND ")+` ORDER BY id DESC LIMIT 50`, args...)
		if err != nil {
			return 0, err
		}
		defer rows.Close()
		n := 0
		for rows.Next() {
			n++
		}
		return n, rows.Err()
	}
	ours, peer := map[string][]time.Duration{}, map[string][]time.Duration{}
	b.ResetTimer()
	for range b.N {
		for range 30 {
			for _, k := range kinds {
				q := queries[k]
				start := time.Now()
				hits, err := history.Search(b.Context(), db, q, history.DefaultLimit)
				ours[k] = append(ours[k], time.Since(start))
				start = time.Now()
				n, lerr := like(q)
				peer[k] = append(peer[k], time.Since(start))
				if err != nil || lerr != nil || len(hits) != n || n == 0 {
					b.Fatalf("%s: %d hits (%v) vs %d by LIKE (%v)", k, len(hits), err, n, lerr)
				}
			}
		}
	}
	b.StopTimer()
	for _, k := range kinds {
		b.ReportMetric(float64(p50(ours[k]).Nanoseconds()), k+"-p50-ns")
		b.ReportMetric(float64(p50(peer[k]).Nanoseconds()), k+"-like-p50-ns")
	}
}

func p50(ds []time.Duration) time.Duration {
	s := slices.Sorted(slices.Values(ds))
	return s[len(s)/2]
}
