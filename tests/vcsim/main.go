// vcsim - the vCenter simulator fixture for provbench's tests.
//
// Starts govmomi's simulator (simulator.VPX()) with TLS on 127.0.0.1 and
// prints one line, "URL SHA1-THUMBPRINT", then serves until stdin closes or
// a signal arrives. Built offline from Debian's packages:
//
//	GOPATH=/usr/share/gocode GO111MODULE=off go build -o vcsim .
//
// The login it accepts comes from the environment (never argv):
// VCSIM_USERNAME / VCSIM_PASSWORD, default user / pass.
package main

import (
	"crypto/sha1"
	"crypto/tls"
	"flag"
	"fmt"
	"io"
	"log"
	"net/url"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/vmware/govmomi/simulator"
)

func thumbprint(raw []byte) string {
	sum := sha1.Sum(raw)
	parts := make([]string, len(sum))
	for i, b := range sum {
		parts[i] = fmt.Sprintf("%02X", b)
	}
	return strings.Join(parts, ":")
}

func getenv(k, def string) string {
	if v := os.Getenv(k); v != "" {
		return v
	}
	return def
}

func main() {
	listen := flag.String("listen", "127.0.0.1:0", "address to listen on")
	flag.Parse()

	model := simulator.VPX()
	if err := model.Create(); err != nil {
		log.Fatal(err)
	}
	defer model.Remove()

	model.Service.TLS = new(tls.Config)
	model.Service.Listen = &url.URL{
		Host: *listen,
		User: url.UserPassword(getenv("VCSIM_USERNAME", "user"),
			getenv("VCSIM_PASSWORD", "pass")),
	}
	s := model.Service.NewServer()
	defer s.Close()

	u := *s.URL
	u.User = nil
	fmt.Printf("%s %s\n", u.String(), thumbprint(s.Certificate().Raw))
	os.Stdout.Sync()

	done := make(chan struct{})
	go func() {
		io.Copy(io.Discard, os.Stdin)
		close(done)
	}()
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGINT, syscall.SIGTERM)
	select {
	case <-sig:
	case <-done:
	}
}
