// guest.go - guest operations executed for real in a local sandbox
// directory (-guest-root DIR), since the packaged simulator only runs them
// for container-backed VMs.
//
// A guest path /a/b is DIR/a/b. StartProgramInGuest runs the program with
// /bin/sh in the sandbox-mapped working directory; every argument word
// that starts with "/" is mapped into the sandbox too, so a program can be
// pointed at guest paths. Guest operations need Tools running in the VM
// (GuestOperationsUnavailable otherwise). Transfers are /guestFile?id=N&
// token=T URLs, one use each, served where a real server serves them
// (hosts.go): by the VM's ESXi host under vCenter, by the host called when
// it is a standalone ESXi. An exited process stays listed for -proc-ttl.
//
// A VM named in -windows-vm is a Windows guest: its paths are X:\a\b
// (DIR/X/a/b; a POSIX path is not one of its files), its programs run
// under Wine (programs under C:\Windows are Wine's own, icacls and net
// among them; others are the sandbox's), each argument that is a Windows
// path becomes the Wine path of its sandbox file, and file attributes
// must be GuestWindowsFileAttributes (the GuestPosixFileAttributes of a
// Linux guest are an invalid argument there, and the other way round: the
// API reference pairs each with its guest family). Its disks are named in
// DIR/C/provbench-disks, the stand-in for the device identifiers Wine
// has no disks to answer (the runner's --by-id-dir).
package main

import (
	"crypto/rand"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/vmware/govmomi/simulator"
	"github.com/vmware/govmomi/vim25/methods"
	"github.com/vmware/govmomi/vim25/mo"
	"github.com/vmware/govmomi/vim25/soap"
	"github.com/vmware/govmomi/vim25/types"
)

var (
	windowsVMs string
	guestRoot  string
	guestPerVM bool
	guestUser  = getenv("VCSIM_GUEST_USERNAME", "bench")
	guestPass  = getenv("VCSIM_GUEST_PASSWORD", "guestpw")

	mu        sync.Mutex
	transfers = map[string]transfer{}
	nextID    int
	procs           = map[int64]*guestProc{}
	nextPid   int64 = 1000
)

type transfer struct {
	path, token, host string
}

type guestProc struct {
	info types.GuestProcessInfo
	cmd  *exec.Cmd
}

// rootOf is the VM's guest filesystem: the one sandbox, or with
// -guest-per-vm a sandbox of its own, DIR/<VM name>, as every real guest
// has its own files and its own /dev (a fleet's VMs run at once).
func rootOf(vm *benchVM) string {
	if guestRoot == "" || !guestPerVM || vm == nil {
		return guestRoot
	}
	root := filepath.Join(guestRoot, vm.Name)
	os.MkdirAll(root, 0755)
	return root
}

func isWindowsName(name string) bool {
	for _, n := range strings.Split(windowsVMs, ",") {
		if n != "" && n == name {
			return true
		}
	}
	return false
}

func (vm *benchVM) windows() bool {
	return vm != nil && isWindowsName(vm.Name)
}

// winPath splits X:\a\b (or X:/a/b) into the drive letter and a/b.
func winPath(p string) (string, string, bool) {
	if len(p) < 3 || p[1] != ':' || (p[2] != '\\' && p[2] != '/') {
		return "", "", false
	}
	d := strings.ToUpper(p[:1])
	if d < "A" || d > "Z" {
		return "", "", false
	}
	return d, strings.ReplaceAll(p[3:], "\\", "/"), true
}

func sandbox(vm *benchVM, p string) (string, bool) {
	root := rootOf(vm)
	if root == "" {
		return "", false
	}
	if vm.windows() {
		d, rest, ok := winPath(p)
		if !ok {
			return "", false
		}
		full := filepath.Join(root, d, filepath.Clean("/"+rest))
		return full, strings.HasPrefix(full, root)
	}
	if !strings.HasPrefix(p, "/") {
		return "", false
	}
	full := filepath.Join(root, filepath.Clean(p))
	return full, strings.HasPrefix(full, root)
}

// wineName is how a program under Wine names a sandbox file: Z: is /.
func wineName(host string) string {
	return "Z:" + strings.ReplaceAll(host, "/", "\\")
}

// attrsFit: the attributes' kind is the guest family's.
func attrsFit(vm *benchVM, a types.BaseGuestFileAttributes) bool {
	switch a.(type) {
	case *types.GuestPosixFileAttributes:
		return !vm.windows()
	case *types.GuestWindowsFileAttributes:
		return vm.windows()
	}
	return true
}

// auth checks the guest login, on a VM whose Tools run.
func auth(ref types.ManagedObjectReference, a types.BaseGuestAuthentication) types.BaseMethodFault {
	pa, ok := a.(*types.NamePasswordAuthentication)
	if !ok || pa.Username != guestUser || pa.Password != guestPass {
		return &types.InvalidGuestLogin{}
	}
	if vm := vmOf(ref); guestRoot == "" || vm == nil || !vm.toolsRunning() {
		return &types.GuestOperationsUnavailable{}
	}
	return nil
}

func fault(f types.BaseMethodFault) *soap.Fault {
	return simulator.Fault(fmt.Sprintf("%T", f), f)
}

// transferURL registers a one-use transfer of path for the VM.
func transferURL(vm *benchVM, path string) string {
	b := make([]byte, 16)
	rand.Read(b)
	authority, host := hostAuthority(vm)
	mu.Lock()
	defer mu.Unlock()
	nextID++
	id := fmt.Sprintf("%d", nextID)
	transfers[id] = transfer{path: path, token: fmt.Sprintf("%x", b), host: host}
	return fmt.Sprintf("https://%s/guestFile?id=%s&token=%s", authority, id,
		transfers[id].token)
}

// serveTransfer handles the PUT (upload) and GET (download) of a
// transfer, on the listener of host ("" for the ESXi called directly).
func serveTransfer(host string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		id := r.URL.Query().Get("id")
		mu.Lock()
		t, ok := transfers[id]
		if ok && t.token == r.URL.Query().Get("token") && t.host == host {
			delete(transfers, id)
		} else {
			ok = false
		}
		mu.Unlock()
		if !ok {
			http.Error(w, "Not Found: no such transfer on this host", http.StatusNotFound)
			return
		}
		switch r.Method {
		case http.MethodPut:
			if uploadError {
				io.Copy(io.Discard, r.Body)
				w.Header().Set("Content-Type", "text/html")
				w.WriteHeader(http.StatusInternalServerError)
				io.WriteString(w, "<html><head><title>500 Internal Server Error</title></head>\n"+
					"<body>Internal Server Error: the guest file could not be written"+
					" (vix error 4: file not found)</body></html>\n")
				return
			}
			f, err := os.OpenFile(t.path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0700)
			if err != nil {
				http.Error(w, err.Error(), http.StatusInternalServerError)
				return
			}
			_, err = io.Copy(f, r.Body)
			f.Close()
			if err != nil {
				http.Error(w, err.Error(), http.StatusInternalServerError)
			}
		case http.MethodGet:
			http.ServeFile(w, r, t.path)
		default:
			http.Error(w, "method", http.StatusMethodNotAllowed)
		}
	}
}

type guestFiles struct {
	mo.GuestFileManager
}

func (m *guestFiles) InitiateFileTransferToGuest(ctx *simulator.Context, req *types.InitiateFileTransferToGuest) soap.HasFault {
	body := new(methods.InitiateFileTransferToGuestBody)
	if f := auth(req.Vm, req.Auth); f != nil {
		body.Fault_ = fault(f)
		return body
	}
	p, ok := sandbox(vmOf(req.Vm), req.GuestFilePath)
	if !ok {
		body.Fault_ = fault(&types.InvalidArgument{InvalidProperty: "guestFilePath"})
		return body
	}
	if !attrsFit(vmOf(req.Vm), req.FileAttributes) {
		body.Fault_ = fault(&types.InvalidArgument{InvalidProperty: "fileAttributes"})
		return body
	}
	if _, err := os.Stat(p); err == nil && !req.Overwrite {
		body.Fault_ = fault(&types.FileAlreadyExists{})
		return body
	}
	body.Res = &types.InitiateFileTransferToGuestResponse{Returnval: transferURL(vmOf(req.Vm), p)}
	return body
}

func (m *guestFiles) InitiateFileTransferFromGuest(ctx *simulator.Context, req *types.InitiateFileTransferFromGuest) soap.HasFault {
	body := new(methods.InitiateFileTransferFromGuestBody)
	if f := auth(req.Vm, req.Auth); f != nil {
		body.Fault_ = fault(f)
		return body
	}
	p, ok := sandbox(vmOf(req.Vm), req.GuestFilePath)
	st, err := os.Stat(p)
	if !ok || err != nil {
		body.Fault_ = fault(&types.FileNotFound{})
		return body
	}
	body.Res = &types.InitiateFileTransferFromGuestResponse{
		Returnval: types.FileTransferInformation{
			Attributes: &types.GuestFileAttributes{},
			Size:       st.Size(),
			Url:        transferURL(vmOf(req.Vm), p),
		},
	}
	return body
}

func (m *guestFiles) MakeDirectoryInGuest(ctx *simulator.Context, req *types.MakeDirectoryInGuest) soap.HasFault {
	body := new(methods.MakeDirectoryInGuestBody)
	if f := auth(req.Vm, req.Auth); f != nil {
		body.Fault_ = fault(f)
		return body
	}
	p, ok := sandbox(vmOf(req.Vm), req.DirectoryPath)
	var err error
	if ok && req.CreateParentDirectories {
		err = os.MkdirAll(p, 0700)
	} else if ok {
		err = os.Mkdir(p, 0700)
	}
	if !ok || err != nil {
		body.Fault_ = fault(&types.FileAlreadyExists{})
		return body
	}
	body.Res = new(types.MakeDirectoryInGuestResponse)
	return body
}

func (m *guestFiles) ChangeFileAttributesInGuest(ctx *simulator.Context, req *types.ChangeFileAttributesInGuest) soap.HasFault {
	body := new(methods.ChangeFileAttributesInGuestBody)
	if f := auth(req.Vm, req.Auth); f != nil {
		body.Fault_ = fault(f)
		return body
	}
	p, ok := sandbox(vmOf(req.Vm), req.GuestFilePath)
	if !attrsFit(vmOf(req.Vm), req.FileAttributes) {
		body.Fault_ = fault(&types.InvalidArgument{InvalidProperty: "fileAttributes"})
		return body
	}
	attrs, posix := req.FileAttributes.(*types.GuestPosixFileAttributes)
	if !ok || !posix || attrs.Permissions == 0 ||
		os.Chmod(p, os.FileMode(attrs.Permissions&0777)) != nil {
		body.Fault_ = fault(&types.FileNotFound{})
		return body
	}
	body.Res = new(types.ChangeFileAttributesInGuestResponse)
	return body
}

func (m *guestFiles) DeleteFileInGuest(ctx *simulator.Context, req *types.DeleteFileInGuest) soap.HasFault {
	body := new(methods.DeleteFileInGuestBody)
	if f := auth(req.Vm, req.Auth); f != nil {
		body.Fault_ = fault(f)
		return body
	}
	p, ok := sandbox(vmOf(req.Vm), req.FilePath)
	if !ok || os.Remove(p) != nil {
		body.Fault_ = fault(&types.FileNotFound{})
		return body
	}
	body.Res = new(types.DeleteFileInGuestResponse)
	return body
}

func (m *guestFiles) DeleteDirectoryInGuest(ctx *simulator.Context, req *types.DeleteDirectoryInGuest) soap.HasFault {
	body := new(methods.DeleteDirectoryInGuestBody)
	if f := auth(req.Vm, req.Auth); f != nil {
		body.Fault_ = fault(f)
		return body
	}
	p, ok := sandbox(vmOf(req.Vm), req.DirectoryPath)
	var err error
	if ok && req.Recursive {
		err = os.RemoveAll(p)
	} else if ok {
		err = os.Remove(p)
	}
	if !ok || err != nil {
		body.Fault_ = fault(&types.FileNotFound{})
		return body
	}
	body.Res = new(types.DeleteDirectoryInGuestResponse)
	return body
}

type guestProcs struct {
	mo.GuestProcessManager
}

func mapArgs(vm *benchVM, args string) string {
	words := strings.Fields(args)
	for i, w := range words {
		if p, ok := sandbox(vm, w); ok {
			words[i] = p
		}
	}
	return strings.Join(words, " ")
}

// wineCommand runs a Windows guest's program under Wine: C:\Windows
// programs are Wine's own, others the sandbox's file; arguments are split
// on spaces (a Windows command line; the runner's paths have none) and
// each Windows path among them is given as the Wine path of its sandbox
// file. No shell: a backslash reaches the program as it was sent.
func wineCommand(vm *benchVM, progPath, prog, args string) *exec.Cmd {
	name := wineName(prog)
	if d, rest, ok := winPath(progPath); ok && d == "C" &&
		strings.HasPrefix(strings.ToLower(rest), "windows/") {
		name = progPath
	}
	argv := []string{name}
	for _, w := range strings.Fields(args) {
		if p, ok := sandbox(vm, w); ok {
			w = wineName(p)
		}
		argv = append(argv, w)
	}
	cmd := exec.Command("wine", argv...)
	cmd.Env = append(os.Environ(), "WINEDEBUG=-all")
	return cmd
}

func (m *guestProcs) StartProgramInGuest(ctx *simulator.Context, req *types.StartProgramInGuest) soap.HasFault {
	body := new(methods.StartProgramInGuestBody)
	if f := auth(req.Vm, req.Auth); f != nil {
		body.Fault_ = fault(f)
		return body
	}
	spec := req.Spec.GetGuestProgramSpec()
	vm := vmOf(req.Vm)
	prog, ok := sandbox(vm, spec.ProgramPath)
	dir := rootOf(vm)
	if spec.WorkingDirectory != "" {
		dir, ok = sandbox(vm, spec.WorkingDirectory)
	}
	if !ok {
		body.Fault_ = fault(&types.FileNotFound{})
		return body
	}
	// exec: the pid Tools report is the program's own, as in a guest
	cmd := exec.Command("/bin/sh", "-c", "exec "+prog+" "+mapArgs(vm, spec.Arguments))
	if vm.windows() {
		cmd = wineCommand(vm, spec.ProgramPath, prog, spec.Arguments)
	}
	cmd.Dir = dir
	cmd.Env = append(append(cmd.Env, os.Environ()...), spec.EnvVariables...)
	if err := cmd.Start(); err != nil {
		body.Fault_ = fault(&types.FileNotFound{})
		return body
	}
	mu.Lock()
	nextPid++
	pid := nextPid
	p := &guestProc{cmd: cmd, info: types.GuestProcessInfo{
		Name: filepath.Base(spec.ProgramPath), Pid: pid,
		Owner:     guestUser,
		CmdLine:   spec.ProgramPath + " " + spec.Arguments,
		StartTime: time.Now(),
	}}
	procs[pid] = p
	mu.Unlock()
	go func() {
		err := cmd.Wait()
		code := int32(0)
		if ee, ok := err.(*exec.ExitError); ok {
			code = int32(ee.ExitCode())
		} else if err != nil {
			code = 127
		}
		now := time.Now()
		mu.Lock()
		p.info.EndTime = &now
		p.info.ExitCode = code
		mu.Unlock()
	}()
	body.Res = &types.StartProgramInGuestResponse{Returnval: pid}
	return body
}

func (m *guestProcs) ListProcessesInGuest(ctx *simulator.Context, req *types.ListProcessesInGuest) soap.HasFault {
	body := new(methods.ListProcessesInGuestBody)
	if f := auth(req.Vm, req.Auth); f != nil {
		body.Fault_ = fault(f)
		return body
	}
	res := &types.ListProcessesInGuestResponse{}
	mu.Lock()
	for _, pid := range req.Pids {
		p, ok := procs[pid]
		if ok && p.info.EndTime != nil && time.Since(*p.info.EndTime) > procTTL {
			// Tools forget an exited process after a while
			delete(procs, pid)
			ok = false
		}
		if ok {
			res.Returnval = append(res.Returnval, p.info)
		}
	}
	mu.Unlock()
	body.Res = res
	return body
}

func (m *guestProcs) TerminateProcessInGuest(ctx *simulator.Context, req *types.TerminateProcessInGuest) soap.HasFault {
	body := new(methods.TerminateProcessInGuestBody)
	if f := auth(req.Vm, req.Auth); f != nil {
		body.Fault_ = fault(f)
		return body
	}
	mu.Lock()
	p, ok := procs[req.Pid]
	mu.Unlock()
	if !ok {
		body.Fault_ = fault(&types.GuestProcessNotFound{Pid: req.Pid})
		return body
	}
	// Tools on a POSIX guest send SIGTERM, then SIGKILL if the process
	// is still there a few seconds later (vSphere API reference,
	// TerminateProcessInGuest); on Windows they end it outright
	// (TerminateProcess: no handler runs, nothing is flushed)
	if vm := vmOf(req.Vm); vm.windows() {
		p.cmd.Process.Kill()
		body.Res = new(types.TerminateProcessInGuestResponse)
		return body
	}
	p.cmd.Process.Signal(syscall.SIGTERM)
	time.AfterFunc(5*time.Second, func() {
		mu.Lock()
		ended := p.info.EndTime != nil
		mu.Unlock()
		if !ended {
			p.cmd.Process.Kill()
		}
	})
	body.Res = new(types.TerminateProcessInGuestResponse)
	return body
}

// guestDisk is a disk a reconfiguration added, as the guest would see
// it: a sparse file of its capacity, found by its serial.
type guestDisk struct {
	file  string
	bytes int64
	hex   string // the backing uuid, as a serial: lower-case, no dashes
	naa   string // physical RDM: the LUN's own NAA id, which it shows
	unit  int32
}

// trackDisks records what a reconfiguration added and removed.
func (vm *benchVM) trackDisks(req *types.ReconfigVM_Task) {
	if guestRoot == "" {
		return
	}
	for _, c := range req.Spec.DeviceChange {
		spec := c.GetVirtualDeviceConfigSpec()
		disk, ok := spec.Device.(*types.VirtualDisk)
		if !ok {
			continue
		}
		uuid, naa := "", ""
		switch b := disk.Backing.(type) {
		case *types.VirtualDiskFlatVer2BackingInfo:
			uuid = b.Uuid
		case *types.VirtualDiskRawDiskMappingVer1BackingInfo:
			uuid = b.Uuid
			if b.CompatibilityMode == "physicalMode" {
				// SCSI INQUIRY passes through: page 0x83 is the LUN's
				naa = lunNAA(b.DeviceName)
			}
		}
		if uuid == "" {
			continue
		}
		hex := strings.ToLower(strings.ReplaceAll(uuid, "-", ""))
		switch spec.Operation {
		case types.VirtualDeviceConfigSpecOperationAdd:
			unit := int32(0)
			if disk.UnitNumber != nil {
				unit = *disk.UnitNumber
			}
			vm.disks[hex] = guestDisk{
				file:  filepath.Join(rootOf(vm), ".disks", hex+".img"),
				bytes: disk.CapacityInKB * 1024, hex: hex, naa: naa,
				unit: unit,
			}
		case types.VirtualDeviceConfigSpecOperationRemove:
			if d, ok := vm.disks[hex]; ok {
				os.Remove(d.file)
				delete(vm.disks, hex)
			}
		}
	}
	syncGuestDisks(vm)
}

// lunNAA is the hex NAA id of the LUN behind an RDM's device name.
func lunNAA(dev string) string {
	i := strings.Index(dev, "naa.")
	if i < 0 {
		return ""
	}
	return strings.ToLower(dev[i+4:])
}

// syncGuestDisks lays out /dev/disk in the sandbox as the guest sees its
// disks now: every disk by path; by serial (wwn-0x...) only when the VM
// was powered on with disk.EnableUUID=TRUE, except a physical RDM, which
// always shows its LUN's NAA id.
func syncGuestDisks(vm *benchVM) {
	if guestRoot == "" {
		return
	}
	root := rootOf(vm)
	byID := filepath.Join(root, "dev", "disk", "by-id")
	if vm.windows() {
		byID = filepath.Join(root, "C", "provbench-disks")
	}
	byPath := filepath.Join(root, "dev", "disk", "by-path")
	store := filepath.Join(root, ".disks")
	os.RemoveAll(byID)
	os.RemoveAll(byPath)
	os.MkdirAll(byID, 0755)
	os.MkdirAll(byPath, 0755)
	os.MkdirAll(store, 0755)
	for _, d := range vm.disks {
		if _, err := os.Stat(d.file); err != nil {
			if f, err := os.Create(d.file); err == nil {
				f.Truncate(d.bytes)
				f.Close()
			}
		}
		os.Symlink(d.file, filepath.Join(byPath,
			fmt.Sprintf("pci-0000:03:00.0-scsi-0:0:%d:0", d.unit)))
		switch {
		case d.naa != "":
			os.Symlink(d.file, filepath.Join(byID, "wwn-0x"+d.naa))
		case vm.uuidLive():
			os.Symlink(d.file, filepath.Join(byID, "wwn-0x"+d.hex))
		}
	}
}

// installGuest replaces the simulator's guest managers with ours.
func installGuest() {
	fm := &guestFiles{}
	fm.Self = types.ManagedObjectReference{Type: "GuestFileManager", Value: "guestOperationsFileManager"}
	simulator.Map.Put(fm)
	pm := &guestProcs{}
	pm.Self = types.ManagedObjectReference{Type: "GuestProcessManager", Value: "guestOperationsProcessManager"}
	simulator.Map.Put(pm)
}
