// paging.go - RetrievePropertiesEx in pages (-page-size K), which the
// packaged simulator does not do: a reply's objects beyond the first K are
// kept under a token, and ContinueRetrievePropertiesEx hands them out K at
// a time, the last page without a token, as vCenter does.
package main

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync"
)

var (
	pageMu   sync.Mutex
	pages    = map[string][]string{} // token -> objects still to send
	pageSeq  int
	tokenRe  = regexp.MustCompile(`<token>([^<]*)</token>`)
	objectRe = regexp.MustCompile(`(?s)<objects>.*?</objects>`)
)

func soapReply(body string) string {
	return `<?xml version="1.0" encoding="UTF-8"?>` +
		`<soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/" ` +
		`xmlns:xsd="http://www.w3.org/2001/XMLSchema" ` +
		`xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">` +
		`<soapenv:Body>` + body + `</soapenv:Body></soapenv:Envelope>`
}

// page returns the next page of objs and the token for the rest.
func page(objs []string) (string, string) {
	if len(objs) <= pageSize {
		return strings.Join(objs, ""), ""
	}
	pageMu.Lock()
	pageSeq++
	token := fmt.Sprintf("page-%d", pageSeq)
	pages[token] = objs[pageSize:]
	pageMu.Unlock()
	return strings.Join(objs[:pageSize], ""), token
}

func withToken(objs, token string) string {
	if token == "" {
		return objs
	}
	return "<token>" + token + "</token>" + objs
}

func paging(inner http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if pageSize <= 0 || r.Method != http.MethodPost {
			inner.ServeHTTP(w, r)
			return
		}
		req, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(req))
		switch {
		case bytes.Contains(req, []byte("<ContinueRetrievePropertiesEx")):
			m := tokenRe.FindSubmatch(req)
			pageMu.Lock()
			objs, ok := pages[string(m[1])]
			delete(pages, string(m[1]))
			pageMu.Unlock()
			if m == nil || !ok {
				w.WriteHeader(http.StatusInternalServerError)
				io.WriteString(w, soapReply(`<soapenv:Fault><faultcode>ServerFaultCode</faultcode>`+
					`<faultstring>invalid token</faultstring><detail>`+
					`<InvalidArgumentFault xmlns="urn:vim25" xsi:type="InvalidArgument">`+
					`<invalidProperty>token</invalidProperty></InvalidArgumentFault>`+
					`</detail></soapenv:Fault>`))
				return
			}
			body, token := page(objs)
			io.WriteString(w, soapReply(`<ContinueRetrievePropertiesExResponse xmlns="urn:vim25"><returnval>`+
				withToken(body, token)+`</returnval></ContinueRetrievePropertiesExResponse>`))
		case bytes.Contains(req, []byte("<RetrievePropertiesEx")):
			rec := httptest.NewRecorder()
			inner.ServeHTTP(rec, r)
			res := rec.Body.String()
			objs := objectRe.FindAllString(res, -1)
			if rec.Code != http.StatusOK || len(objs) <= pageSize {
				for k, v := range rec.Header() {
					w.Header()[k] = v
				}
				w.WriteHeader(rec.Code)
				io.WriteString(w, res)
				return
			}
			body, token := page(objs)
			first := strings.Index(res, objs[0])
			last := strings.LastIndex(res, objs[len(objs)-1]) + len(objs[len(objs)-1])
			for k, v := range rec.Header() {
				w.Header()[k] = v
			}
			io.WriteString(w, res[:first]+withToken(body, token)+res[last:])
		default:
			inner.ServeHTTP(w, r)
		}
	})
}
