// opfault.go - faults aimed at one SOAP method (-fault-op OP -fault KIND
// [-fault-skip K] [-fault-count N]): the (K+1)th to (K+N)th calls of OP
// get KIND instead of their normal reply:
//
//   - drop:       the connection is closed without a reply
//   - lost:       the call is done, then its connection closed without a
//     reply (a write the client cannot know went through)
//   - 500, 503:   that HTTP status with an HTML body, as a proxy sends
//   - cut:        the reply's headers and half its XML, then the end
//   - expire:     the session is forgotten for this call (NotAuthenticated)
//   - refuse-url: a guest file-transfer URL is pointed at a closed port
//   - no-permission: the NoPermission fault vCenter answers a user without
//     the privilege (System.Read on the entity asked about), HTTP 500
package main

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strconv"
	"strings"
	"sync/atomic"
)

type opFault struct {
	op          string
	kind        string
	skip, count int64
	seen        int64
}

var (
	portRe       = regexp.MustCompile(`(https?://[^/:<]+):[0-9]+/`)
	perfEntityRe = regexp.MustCompile(`<entity type="\w+">[^<]+</entity>`)
)

// Does this request call f.op, and is it one of those to fault?
func (f *opFault) hit(body []byte) bool {
	if f.op == "" {
		return false
	}
	if !bytes.Contains(body, []byte("<"+f.op+" ")) &&
		!bytes.Contains(body, []byte("<"+f.op+">")) {
		return false
	}
	n := atomic.AddInt64(&f.seen, 1)
	return n > f.skip && n <= f.skip+f.count
}

func (f *opFault) wrap(inner http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || !strings.HasSuffix(r.URL.Path, "/sdk") {
			inner.ServeHTTP(w, r)
			return
		}
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body))
		if !f.hit(body) {
			inner.ServeHTTP(w, r)
			return
		}
		switch f.kind {
		case "drop":
			if hj, ok := w.(http.Hijacker); ok {
				if conn, _, err := hj.Hijack(); err == nil {
					conn.Close()
					return
				}
			}
		case "lost":
			inner.ServeHTTP(httptest.NewRecorder(), r)
			if hj, ok := w.(http.Hijacker); ok {
				if conn, _, err := hj.Hijack(); err == nil {
					conn.Close()
					return
				}
			}
		case "500", "503":
			code, _ := strconv.Atoi(f.kind)
			w.Header().Set("Content-Type", "text/html")
			w.WriteHeader(code)
			io.WriteString(w, "<html><body>"+http.StatusText(code)+"</body></html>\n")
			return
		case "no-permission":
			ent := perfEntityRe.FindSubmatch(body)
			obj := `<object type="VirtualMachine">vm-0</object>`
			if ent != nil {
				obj = string(ent[0])
				obj = strings.Replace(strings.Replace(obj, "<entity", "<object", 1), "</entity>", "</object>", 1)
			}
			w.Header().Set("Content-Type", "text/xml; charset=utf-8")
			w.WriteHeader(http.StatusInternalServerError)
			io.WriteString(w, soapReply(`<soapenv:Fault><faultcode>ServerFaultCode</faultcode>`+
				`<faultstring>Permission to perform this operation was denied.</faultstring><detail>`+
				`<NoPermissionFault xmlns="urn:vim25" xsi:type="NoPermission">`+obj+
				`<privilegeId>System.Read</privilegeId></NoPermissionFault></detail></soapenv:Fault>`))
			return
		case "expire":
			r.Header.Del("Cookie")
		case "cut", "refuse-url":
			rec := httptest.NewRecorder()
			inner.ServeHTTP(rec, r)
			out := rec.Body.Bytes()
			if f.kind == "cut" {
				out = out[:len(out)/2]
			} else {
				out = portRe.ReplaceAll(out, []byte("${1}:1/"))
			}
			for k, v := range rec.Header() {
				w.Header()[k] = v
			}
			w.Header().Set("Content-Length", strconv.Itoa(len(out)))
			w.WriteHeader(rec.Code)
			w.Write(out)
			return
		}
		inner.ServeHTTP(w, r)
	})
}
