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
//
// Extensions over the packaged simulator, for provbench's tests:
//   - every host has SCSI LUNs for RDM (naa.6000c2900000000000000000000001,
//     ...02 free; ...03 in use as a VMFS extent);
//   - a disk added without a backing uuid gets one, as ESXi assigns it;
//   - -fail-mode MODE: adding a disk of that provisioning mode (thin, lazy,
//     eager, rdm, rdmp) fails its task with InsufficientStorageSpace;
//   - -expire-after N: from the Nth SOAP call on, the session of that call
//     is gone (NotAuthenticated), as when a session times out mid-run;
//   - -drop-after N [-drop-count K]: K SOAP calls from the Nth have their
//     connection closed unanswered;
//   - -fault-op OP -fault KIND [-fault-skip K] [-fault-count N]: faults
//     aimed at one SOAP method (opfault.go)
//   - -tls-cert FILE -tls-key FILE: serve that certificate (a test's own
//     CA signs it), for the trust tests
//   - -task-delay D: a reconfiguration task runs for D (progress 50% half
//     way) instead of finishing before its call returns;
//   - -page-size K: RetrievePropertiesEx answers K objects at a time with
//     a token for ContinueRetrievePropertiesEx (paging.go), as vCenter
//     does with large inventories;
//   - -guest-root DIR: guest operations run for real in DIR (guest.go),
//     with the login VCSIM_GUEST_USERNAME / VCSIM_GUEST_PASSWORD
//     (default bench / guestpw).
package main

import (
	"crypto/rand"
	"crypto/sha1"
	"crypto/tls"
	"flag"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/url"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/vmware/govmomi/simulator"
	"github.com/vmware/govmomi/simulator/esx"
	"github.com/vmware/govmomi/vim25/methods"
	"github.com/vmware/govmomi/vim25/soap"
	"github.com/vmware/govmomi/vim25/types"
)

var (
	failMode  string
	taskDelay time.Duration
	pageSize  int
)

const gib = int64(1) << 30

// lun is one SCSI disk as ESXi describes it.
func lun(n int, sizeGiB int64) *types.HostScsiDisk {
	naa := fmt.Sprintf("naa.6000c29000000000000000000000%04x", n)
	return &types.HostScsiDisk{
		ScsiLun: types.ScsiLun{
			HostDevice: types.HostDevice{
				DeviceName: "/vmfs/devices/disks/" + naa,
				DeviceType: "disk",
			},
			Key:           "key-vim.host.ScsiDisk-02000000" + naa[4:],
			Uuid:          "02000000" + naa[4:] + "566972747561",
			CanonicalName: naa,
			DisplayName:   fmt.Sprintf("provbench test LUN %d (%s)", n, naa),
			LunType:       "disk",
			Vendor:        "PROVBNCH",
			Model:         "Test LUN",
		},
		Capacity: types.HostDiskDimensionsLba{
			BlockSize: 512,
			Block:     sizeGiB * gib / 512,
		},
		DevicePath: "/vmfs/devices/disks/" + naa,
	}
}

func addLUNs() {
	sd := esx.HostConfigInfo.StorageDevice
	for n := 1; n <= 3; n++ {
		sd.ScsiLun = append(sd.ScsiLun, lun(n, int64(8*n)))
	}
	// LUN 3 already holds a VMFS datastore: not usable for an RDM
	esx.HostConfigInfo.FileSystemVolume = &types.HostFileSystemVolumeInfo{
		MountInfo: []types.HostFileSystemMountInfo{{
			MountInfo: types.HostMountInfo{
				Path:       "/vmfs/volumes/provbench-vmfs",
				AccessMode: "readWrite",
			},
			Volume: &types.HostVmfsVolume{
				HostFileSystemVolume: types.HostFileSystemVolume{
					Type: "VMFS", Name: "provbench-vmfs",
					Capacity: 24 * gib,
				},
				Extent: []types.HostScsiDiskPartition{{
					DiskName:  "naa.6000c290000000000000000000000003",
					Partition: 1,
				}},
			},
		}},
	}
}

// newUUID formats a random uuid the way ESXi shows disk uuids.
func newUUID() string {
	b := make([]byte, 16)
	rand.Read(b)
	return fmt.Sprintf("6000C29%x-%x-%x-%x-%x", b[0]&0xf, b[1:3], b[3:5],
		b[5:7], b[7:13])
}

func diskMode(d *types.VirtualDisk) string {
	switch b := d.Backing.(type) {
	case *types.VirtualDiskFlatVer2BackingInfo:
		if b.ThinProvisioned != nil && *b.ThinProvisioned {
			return "thin"
		}
		if b.EagerlyScrub != nil && *b.EagerlyScrub {
			return "eager"
		}
		return "lazy"
	case *types.VirtualDiskRawDiskMappingVer1BackingInfo:
		if b.CompatibilityMode == "physicalMode" {
			return "rdmp"
		}
		return "rdm"
	}
	return ""
}

// benchVM adds uuids to new disks and fails a chosen mode on request.
// It embeds the simulator's VM by value: the property collector digs the
// mo type out through first struct fields, which a pointer would stop.
type benchVM struct {
	simulator.VirtualMachine
}

func (vm *benchVM) ReconfigVMTask(ctx *simulator.Context, req *types.ReconfigVM_Task) soap.HasFault {
	// The packaged simulator assumes flat backings when it lays out disks
	// (and panics on an RDM): it sees flat stand-ins for the duration of
	// the call, and the RDM backings go back in afterwards.
	rdms := map[types.BaseVirtualDevice]*types.VirtualDiskRawDiskMappingVer1BackingInfo{}
	for _, d := range vm.Config.Hardware.Device {
		if disk, ok := d.(*types.VirtualDisk); ok {
			if b, ok := disk.Backing.(*types.VirtualDiskRawDiskMappingVer1BackingInfo); ok {
				rdms[d] = b
				disk.Backing = standIn(b)
			}
		}
	}
	for _, c := range req.Spec.DeviceChange {
		spec := c.GetVirtualDeviceConfigSpec()
		disk, ok := spec.Device.(*types.VirtualDisk)
		if !ok || spec.Operation != types.VirtualDeviceConfigSpecOperationAdd {
			continue
		}
		if failMode != "" && diskMode(disk) == failMode {
			restore(rdms)
			task := simulator.CreateTask(req.This, "reconfigVm",
				func(*simulator.Task) (types.AnyType, types.BaseMethodFault) {
					return nil, &types.InsufficientStorageSpace{}
				})
			return &methods.ReconfigVM_TaskBody{
				Res: &types.ReconfigVM_TaskResponse{Returnval: task.Run()},
			}
		}
		switch b := disk.Backing.(type) {
		case *types.VirtualDiskFlatVer2BackingInfo:
			if b.Uuid == "" {
				b.Uuid = newUUID()
			}
		case *types.VirtualDiskRawDiskMappingVer1BackingInfo:
			if b.Uuid == "" {
				b.Uuid = newUUID()
			}
			rdms[spec.Device] = b
			disk.Backing = standIn(b)
		}
	}
	defer guestDisks(req)
	if taskDelay == 0 {
		res := vm.VirtualMachine.ReconfigVMTask(ctx, req)
		restore(rdms)
		return res
	}
	// A slow task, as eager-zeroing on real storage is: queued, running
	// at 50%, then done; clients must wait on it, not find it finished.
	task := simulator.CreateTask(req.This, "reconfigVm",
		func(t *simulator.Task) (types.AnyType, types.BaseMethodFault) {
			time.Sleep(taskDelay / 2)
			simulator.Map.Update(t, []types.PropertyChange{
				{Name: "info.progress", Val: int32(50)}})
			time.Sleep(taskDelay / 2)
			body := vm.VirtualMachine.ReconfigVMTask(ctx, req).(*methods.ReconfigVM_TaskBody)
			restore(rdms)
			inner := simulator.Map.Get(body.Res.Returnval).(*simulator.Task)
			if inner.Info.Error != nil {
				return nil, inner.Info.Error.Fault
			}
			return nil, nil
		})
	go task.Run()
	return &methods.ReconfigVM_TaskBody{
		Res: &types.ReconfigVM_TaskResponse{Returnval: task.Self},
	}
}

func standIn(b *types.VirtualDiskRawDiskMappingVer1BackingInfo) *types.VirtualDiskFlatVer2BackingInfo {
	return &types.VirtualDiskFlatVer2BackingInfo{
		VirtualDeviceFileBackingInfo: b.VirtualDeviceFileBackingInfo,
		DiskMode:                     b.DiskMode,
		Uuid:                         b.Uuid,
	}
}

// restore puts RDM backings back, with the file name the simulator chose.
func restore(rdms map[types.BaseVirtualDevice]*types.VirtualDiskRawDiskMappingVer1BackingInfo) {
	for d, b := range rdms {
		disk := d.(*types.VirtualDisk)
		if flat, ok := disk.Backing.(*types.VirtualDiskFlatVer2BackingInfo); ok {
			b.VirtualDeviceFileBackingInfo = flat.VirtualDeviceFileBackingInfo
		}
		disk.Backing = b
	}
}

// faults wraps the SOAP endpoint to count calls and inject faults.
func faults(inner http.Handler, expireAt, dropAt, dropCount int64) http.Handler {
	var calls int64
	var expired atomic.Value // the session cookie the server "forgot"
	expired.Store("")
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/provbench-stats" {
			// benchmarks count round trips here, for every client alike
			fmt.Fprintf(w, "{\"soap_calls\": %d}\n", atomic.LoadInt64(&calls))
			return
		}
		if r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/sdk") {
			n := atomic.AddInt64(&calls, 1)
			cookie := r.Header.Get("Cookie")
			if n == expireAt {
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

func main() {
	listen := flag.String("listen", "127.0.0.1:0", "address to listen on")
	flag.StringVar(&failMode, "fail-mode", "", "fail adding disks of this mode")
	expireAt := flag.Int64("expire-after", 0, "the Nth SOAP call loses its session")
	dropAt := flag.Int64("drop-after", 0, "the Nth SOAP call's connection is dropped")
	dropCount := flag.Int64("drop-count", 1, "how many calls from the Nth are dropped")
	flag.StringVar(&guestRoot, "guest-root", "", "run guest operations in this directory")
	flag.DurationVar(&taskDelay, "task-delay", 0, "reconfigure tasks take this long")
	flag.IntVar(&pageSize, "page-size", 0, "RetrievePropertiesEx returns pages of this many objects")
	var of opFault
	flag.StringVar(&of.op, "fault-op", "", "the SOAP method -fault aims at")
	flag.StringVar(&of.kind, "fault", "drop", "drop, 500, 503, cut, expire or refuse-url")
	flag.Int64Var(&of.skip, "fault-skip", 0, "calls of -fault-op answered normally first")
	flag.Int64Var(&of.count, "fault-count", 1, "calls of -fault-op that get the fault")
	certFile := flag.String("tls-cert", "", "serve this certificate (PEM) instead of the built-in one")
	keyFile := flag.String("tls-key", "", "the key of -tls-cert")
	flag.Parse()

	addLUNs()
	model := simulator.VPX()
	if err := model.Create(); err != nil {
		log.Fatal(err)
	}
	defer model.Remove()
	for _, obj := range simulator.Map.All("VirtualMachine") {
		vm := &benchVM{*obj.(*simulator.VirtualMachine)}
		if guestRoot != "" {
			// the sandbox is the guest: its Tools answer
			vm.Guest.ToolsRunningStatus = string(types.VirtualMachineToolsRunningStatusGuestToolsRunning)
			vm.Guest.ToolsStatus = types.VirtualMachineToolsStatusToolsOk
		}
		simulator.Map.Put(vm)
	}

	model.Service.TLS = new(tls.Config)
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
	if guestRoot != "" {
		abs, err := filepath.Abs(guestRoot)
		if err != nil {
			log.Fatal(err)
		}
		guestRoot = abs
	}
	s := model.Service.NewServer()
	defer s.Close()
	installGuest(model.Service.ServeMux, s.URL.Port())
	s.Config.Handler = of.wrap(faults(paging(s.Config.Handler), *expireAt, *dropAt, *dropCount))

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
