// vcsim - the vSphere simulator fixture for provbench's tests.
//
// Starts govmomi's simulator with TLS on 127.0.0.1 and prints one line,
// "URL SHA1-THUMBPRINT", then serves until stdin closes or a signal
// arrives. Built offline from Debian's packages:
//
//	GOPATH=/usr/share/gocode GO111MODULE=off go build -o vcsim .
//
// The login it accepts comes from the environment (never argv):
// VCSIM_USERNAME / VCSIM_PASSWORD, default user / pass.
//
// Two servers, as labs have them (hosts.go):
//   - vCenter (the default, simulator.VPX()): guest-transfer URLs name the
//     VM's ESXi host, which serves them on a listener of its own with its
//     own certificate; vCenter reports that certificate's SHA-1 in the
//     host's summary.config.sslThumbprint and the host's management
//     address in config.virtualNicManagerInfo.netConfig;
//   - -esx: a standalone ESXi host (simulator.ESX(): ha-datacenter, host
//     localhost.localdomain), whose transfer URLs say "*" for "the server
//     you called" and are served by the same listener.
//
// What a real server does and the packaged simulator does not:
//   - every host has SCSI LUNs (luns.go): two free, one a VMFS extent, and
//     a vSAN-claimed disk, the local boot disk and a CD-ROM that
//     EnvironmentBrowser.QueryConfigTarget never offers for RDM;
//   - a disk added without a backing uuid gets one, as ESXi assigns it;
//     a device on a controller unit that any device already holds is an
//     InvalidDeviceSpec (vm.go);
//   - every VM has a CD-ROM on its SCSI controller, unit 1;
//   - extraConfig (disk.EnableUUID among it) takes effect at power-on
//     only; ShutdownGuest powers off a moment later, and Tools run again
//     a moment after a power-on (-boot-delay);
//   - guest operations run for real in -guest-root DIR (guest.go): the
//     guest sees a disk by its uuid only when the VM was powered on with
//     disk.EnableUUID=TRUE, and a physical RDM by the LUN's own NAA id;
//     an exited process is forgotten after -proc-ttl (ESXi keeps it
//     about five minutes).
//
// Test switches:
//   - -enable-uuid: the VMs were powered on with disk.EnableUUID=TRUE, as a
//     prepared lab VM is;
//   - -host-name NAME: the first host is named NAME in the inventory (a
//     name that resolves, say), instead of DC0_H0;
//   - -license free: the free ESXi licence (license.go): LicenseManager
//     shows the vSphere Hypervisor edition and every write faults
//     RestrictedVersion;
//   - -tls-max 1.0|1.1: the server speaks no newer TLS (ESXi 5.0 / 5.1);
//   - -upload-error: an upload's PUT is answered with HTTP 500 and a body;
//   - -versions FILE: /sdk/vimServiceVersions.xml is FILE (a vCenter 8
//     list naming an internal version, an ESXi 5.1 one);
//   - -offer-h2: TLS offers HTTP/2 too, and a request over it is answered
//     505 (the SDK is spoken over HTTP/1.1, as govmomi and pyVmomi do);
//   - -snapshot: the VMs have a snapshot;
//   - -datastores N: N datastores (LocalDS_0 ...), each mounted on every
//     host, as a lab's shared datastores are;
//   - -guest-per-vm: each VM's guest is a sandbox of its own,
//     -guest-root DIR/<VM name> (its files, its /dev/disk), as VMs that
//     run at once are; without it every VM shares DIR, which is enough
//     while one VM at a time runs guest operations;
//   - -vms N: N VMs per resource pool (DC0_H0_VM0 ... on the standalone
//     host, DC0_C0_RP0_VM0 ... in the cluster), for fleets;
//   - -fail-mode MODE: adding a disk of that provisioning mode (thin, lazy,
//     eager, rdm, rdmp) fails its task with InsufficientStorageSpace;
//   - -expire-after N: from the Nth SOAP call on, the session of that call
//     is gone (NotAuthenticated), as when a session times out mid-run;
//     GET /provbench-expire?after=N arms it again: the Nth call from then;
//   - -drop-after N [-drop-count K]: K SOAP calls from the Nth have their
//     connection closed unanswered;
//   - -fault-op OP -fault KIND [-fault-skip K] [-fault-count N]: faults
//     aimed at one SOAP method (opfault.go);
//   - -tls-cert FILE -tls-key FILE: serve that certificate (a test's own
//     CA signs it), for the trust tests;
//   - -task-delay D: a reconfiguration task runs for D (progress 50% half
//     way) instead of finishing before its call returns;
//   - -page-size K: RetrievePropertiesEx answers K objects at a time with
//     a token for ContinueRetrievePropertiesEx (paging.go), as vCenter
//     does with large inventories;
//   - -nfs NAME [-nfs-vaai], -vsan NAME, -pod: datastores as labs have
//     them (storage.go), with SPBM's policies for vSAN (pbm.go);
//   - -nvme-only VM, -full-scsi VM, -no-tools VM, -maintenance VM: VMs and
//     hosts a run must not start on (lab.go);
//   - -esx8: vSphere 8's storage device list, vSAN's disks told only by
//     HostVsanSystem.QueryDisksForVsan (lab.go);
//   - QueryPerf's real-time samples on the server's 20 s marks, each
//     appearing 25 s after its interval, in csv, and
//     QueryAvailablePerfMetric by the entity's own instances (perf.go);
//   - -task-delay tasks are cancelable (CancelTask: RequestCanceled, no
//     disk made); -task-uncancelable: NotSupported, the disk appears when
//     the task ends (lab.go).
package main

import (
	"bytes"
	"crypto/sha1"
	"crypto/tls"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/url"
	"os"
	"os/signal"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/vmware/govmomi/simulator"
	"github.com/vmware/govmomi/vim25/types"
)

var (
	failMode    string
	taskDelay   time.Duration
	pageSize    int
	esxMode     bool
	enableUUID  bool
	bootDelay   time.Duration
	uploadError bool
	procTTL     time.Duration
	freeLicense bool
)

var (
	opMu     sync.Mutex
	opCounts = map[string]int{}
	opRe     = regexp.MustCompile(`<(?:[a-zA-Z0-9]+:)?Body[^>]*>\s*<(?:[a-zA-Z0-9]+:)?([A-Za-z_]+)`)
)

// faults wraps the SOAP endpoint to count calls and inject faults.
func faults(inner http.Handler, expireFirst, dropAt, dropCount int64) http.Handler {
	var calls int64
	var expired atomic.Value // the session cookie the server "forgot"
	expired.Store("")
	expireAt := expireFirst
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/provbench-expire" {
			// re-arm -expire-after without a restart: the Nth SOAP
			// call from now on loses its session (a test loops over
			// every call of a run against one server)
			n, err := strconv.ParseInt(r.URL.Query().Get("after"), 10, 64)
			if err != nil || n < 1 {
				http.Error(w, "after=N, N >= 1", http.StatusBadRequest)
				return
			}
			atomic.StoreInt64(&expireAt, atomic.LoadInt64(&calls)+n)
			fmt.Fprintf(w, "{\"expire_at\": %d}\n", atomic.LoadInt64(&expireAt))
			return
		}
		if r.URL.Path == "/provbench-stats" {
			// benchmarks and tests count round trips here, for every
			// client alike, in all and per method
			opMu.Lock()
			ops, _ := json.Marshal(opCounts)
			opMu.Unlock()
			fmt.Fprintf(w, "{\"soap_calls\": %d, \"ops\": %s}\n",
				atomic.LoadInt64(&calls), ops)
			return
		}
		if r.ProtoMajor != 1 {
			http.Error(w, "HTTP/1.1 only", http.StatusHTTPVersionNotSupported)
			return
		}
		if r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/sdk") {
			body, _ := io.ReadAll(r.Body)
			r.Body = io.NopCloser(bytes.NewReader(body))
			if m := opRe.FindSubmatch(body); m != nil {
				opMu.Lock()
				opCounts[string(m[1])]++
				opMu.Unlock()
			}
			n := atomic.AddInt64(&calls, 1)
			cookie := r.Header.Get("Cookie")
			if n == atomic.LoadInt64(&expireAt) {
				expired.Store(cookie)
			}
			if e := expired.Load().(string); e != "" && cookie == e {
				r.Header.Del("Cookie")
			}
			if dropAt > 0 && n >= dropAt && n < dropAt+dropCount {
				if hj, ok := w.(http.Hijacker); ok {
					if conn, _, err := hj.Hijack(); err == nil {
						conn.Close()
						return
					}
				}
			}
		}
		inner.ServeHTTP(w, r)
	})
}

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

func tlsVersion(s string) uint16 {
	switch s {
	case "1.0":
		return tls.VersionTLS10
	case "1.1":
		return tls.VersionTLS11
	case "1.2":
		return tls.VersionTLS12
	case "", "1.3":
		return 0
	}
	log.Fatalf("-tls-max %s: 1.0, 1.1, 1.2 or 1.3", s)
	return 0
}

func main() {
	listen := flag.String("listen", "127.0.0.1:0", "address to listen on")
	flag.BoolVar(&esxMode, "esx", false, "a standalone ESXi host instead of vCenter")
	flag.StringVar(&failMode, "fail-mode", "", "fail adding disks of this mode")
	flag.Int64Var(&perfInterval, "perf-interval", 20, "the real-time statistics' interval, seconds (QueryPerfProviderSummary's refreshRate)")
	flag.DurationVar(&perfLag, "perf-lag", 25*time.Second, "a real-time sample appears this long after its interval ends")
	expireAt := flag.Int64("expire-after", 0, "the Nth SOAP call loses its session")
	dropAt := flag.Int64("drop-after", 0, "the Nth SOAP call's connection is dropped")
	dropCount := flag.Int64("drop-count", 1, "how many calls from the Nth are dropped")
	flag.StringVar(&guestRoot, "guest-root", "", "run guest operations in this directory")
	flag.StringVar(&windowsVMs, "windows-vm", "", "these VMs (comma-separated names) run Windows: guestFamily windowsGuest, C:\\ paths, programs run under Wine")
	flag.BoolVar(&guestPerVM, "guest-per-vm", false, "each VM's guest operations in a directory of its own under -guest-root, DIR/<VM name>")
	flag.DurationVar(&taskDelay, "task-delay", 0, "reconfigure tasks take this long")
	flag.IntVar(&pageSize, "page-size", 0, "RetrievePropertiesEx returns pages of this many objects")
	flag.BoolVar(&enableUUID, "enable-uuid", false, "VMs were powered on with disk.EnableUUID=TRUE")
	flag.DurationVar(&bootDelay, "boot-delay", 300*time.Millisecond, "Tools start this long after a power-on")
	flag.DurationVar(&procTTL, "proc-ttl", 5*time.Minute, "an exited guest process is listed this long")
	flag.BoolVar(&uploadError, "upload-error", false, "answer upload PUTs with HTTP 500 and a body")
	hostName := flag.String("host-name", "", "the first host's inventory name")
	license := flag.String("license", "", "\"free\": the free ESXi licence")
	tlsMax := flag.String("tls-max", "", "the newest TLS version served")
	versions := flag.String("versions", "", "serve this vimServiceVersions.xml")
	offerH2 := flag.Bool("offer-h2", false, "offer HTTP/2 in the TLS handshake")
	snapshot := flag.Bool("snapshot", false, "the VMs have a snapshot")
	datastores := flag.Int("datastores", 1, "datastores in the inventory (LocalDS_0, LocalDS_1, ...), each mounted on every host")
	vms := flag.Int("vms", 2, "VMs per resource pool (vCenter: the standalone host's and the cluster's)")
	var of opFault
	flag.StringVar(&of.op, "fault-op", "", "the SOAP method -fault aims at")
	flag.StringVar(&of.kind, "fault", "drop", "drop, lost, 500, 503, cut, expire or refuse-url")
	flag.Int64Var(&of.skip, "fault-skip", 0, "calls of -fault-op answered normally first")
	flag.Int64Var(&of.count, "fault-count", 1, "calls of -fault-op that get the fault")
	flag.StringVar(&nfsName, "nfs", "", "this datastore is NFS 3, without the VAAI-NAS plugin unless -nfs-vaai")
	flag.BoolVar(&nfsVAAI, "nfs-vaai", false, "the -nfs datastore has the VAAI-NAS plugin")
	flag.Float64Var(&reclaimMBs, "reclaim-mbs", 25, "MB/s at which VMFS 6 gives back what a guest discarded (reclaim.go)")
	flag.StringVar(&vsanName, "vsan", "", "this datastore is vSAN")
	flag.BoolVar(&withPod, "pod", false, "a datastore cluster DC0_POD0 holds every datastore but LocalDS_0")
	flag.StringVar(&nvmeOnly, "nvme-only", "", "this VM's disks are on an NVMe controller, and it has no SCSI one")
	flag.StringVar(&fullSCSI, "full-scsi", "", "this VM's SCSI controller has a device on every unit")
	flag.StringVar(&noTools, "no-tools", "", "this VM's guest has no VMware Tools installed")
	flag.StringVar(&maintenance, "maintenance", "", "this VM's host is entering maintenance mode, waiting for its VMs to go")
	flag.BoolVar(&esx8, "esx8", false, "hosts list vSAN-claimed disks without vsanDiskInfo (vSphere 8); HostVsanSystem.QueryDisksForVsan tells")
	flag.BoolVar(&taskUncancelable, "task-uncancelable", false, "a slow -task-delay task cannot be cancelled (NotSupported)")
	certFile := flag.String("tls-cert", "", "serve this certificate (PEM) instead of the built-in one")
	keyFile := flag.String("tls-key", "", "the key of -tls-cert")
	flag.Parse()
	freeLicense = *license == "free"

	addLUNs()
	model := simulator.VPX()
	if esxMode {
		model = simulator.ESX()
	}
	model.Datastore = *datastores
	model.Machine = *vms
	if withPod && !esxMode {
		model.Pod = 1
	}
	if err := model.Create(); err != nil {
		log.Fatal(err)
	}
	defer model.Remove()
	if guestRoot != "" {
		abs, err := filepath.Abs(guestRoot)
		if err != nil {
			log.Fatal(err)
		}
		guestRoot = abs
	}
	installDatastores()
	installVMs(*snapshot)
	installConfigTargets()
	installNamespaces()
	installVsanSystems()
	installMaintenance()
	installPBM(model.Service)
	if freeLicense {
		installFreeLicense()
	}

	model.Service.TLS = &tls.Config{MaxVersion: tlsVersion(*tlsMax)}
	if *tlsMax == "1.0" || *tlsMax == "1.1" {
		// what such a host offers: CBC suites with SHA-1
		model.Service.TLS.CipherSuites = []uint16{
			tls.TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA,
			tls.TLS_RSA_WITH_AES_128_CBC_SHA,
		}
	}
	if *offerH2 {
		model.Service.TLS.NextProtos = []string{"h2", "http/1.1"}
	}
	if *certFile != "" {
		// a certificate from a CA of the test's own, for trust tests
		pair, err := tls.LoadX509KeyPair(*certFile, *keyFile)
		if err != nil {
			log.Fatal(err)
		}
		model.Service.TLS.Certificates = []tls.Certificate{pair}
	}
	model.Service.Listen = &url.URL{
		Host: *listen,
		User: url.UserPassword(getenv("VCSIM_USERNAME", "user"),
			getenv("VCSIM_PASSWORD", "pass")),
	}
	s := model.Service.NewServer()
	defer s.Close()
	installGuest()
	if esxMode {
		// hostd serves the transfers itself
		model.Service.ServeMux.HandleFunc("/guestFile", serveTransfer(""))
	} else {
		startHostListeners(*hostName)
	}
	var h http.Handler = paging(perfHandler(s.Config.Handler))
	if *versions != "" {
		h = serveVersions(h, *versions)
	}
	h = faults(cancels(h), *expireAt, *dropAt, *dropCount)
	if freeLicense {
		h = restrictWrites(h)
	}
	s.Config.Handler = of.wrap(h)

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

// serveVersions answers /sdk/vimServiceVersions.xml with a file's text.
func serveVersions(inner http.Handler, file string) http.Handler {
	text, err := os.ReadFile(file)
	if err != nil {
		log.Fatal(err)
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/sdk/vimServiceVersions.xml" {
			inner.ServeHTTP(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/xml")
		w.Write(text)
	})
}

// vmOf is the VirtualMachine a request names.
func vmOf(ref types.ManagedObjectReference) *benchVM {
	vm, _ := simulator.Map.Get(ref).(*benchVM)
	return vm
}
