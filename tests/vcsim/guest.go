// guest.go - guest operations executed for real in a local sandbox
// directory (-guest-root DIR), since the packaged simulator only runs them
// for container-backed VMs.
//
// A guest path /a/b is DIR/a/b. StartProgramInGuest runs the program with
// /bin/sh in the sandbox-mapped working directory; every argument word
// that starts with "/" is mapped into the sandbox too, so a program can be
// pointed at guest paths. Transfers go through /provbench-guest/ID on the
// simulator's own listener, with "*" as the host as ESXi does.
package main

import (
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/vmware/govmomi/simulator"
	"github.com/vmware/govmomi/vim25/methods"
	"github.com/vmware/govmomi/vim25/mo"
	"github.com/vmware/govmomi/vim25/soap"
	"github.com/vmware/govmomi/vim25/types"
)

var (
	guestRoot string
	guestUser = getenv("VCSIM_GUEST_USERNAME", "bench")
	guestPass = getenv("VCSIM_GUEST_PASSWORD", "guestpw")
	guestPort string

	mu        sync.Mutex
	transfers = map[string]string{} // id -> sandbox path
	nextID    int
	procs           = map[int64]*guestProc{}
	nextPid   int64 = 1000
)

type guestProc struct {
	info types.GuestProcessInfo
	cmd  *exec.Cmd
}

func sandbox(p string) (string, bool) {
	if guestRoot == "" || !strings.HasPrefix(p, "/") {
		return "", false
	}
	full := filepath.Join(guestRoot, filepath.Clean(p))
	return full, strings.HasPrefix(full, guestRoot)
}

func auth(a types.BaseGuestAuthentication) types.BaseMethodFault {
	pa, ok := a.(*types.NamePasswordAuthentication)
	if !ok || pa.Username != guestUser || pa.Password != guestPass {
		return &types.InvalidGuestLogin{}
	}
	if guestRoot == "" {
		return &types.GuestOperationsUnavailable{}
	}
	return nil
}

func fault(f types.BaseMethodFault) *soap.Fault {
	return simulator.Fault(fmt.Sprintf("%T", f), f)
}

func transferURL(path string) string {
	mu.Lock()
	defer mu.Unlock()
	nextID++
	id := fmt.Sprintf("t%d", nextID)
	transfers[id] = path
	return fmt.Sprintf("https://*:%s/provbench-guest/%s", guestPort, id)
}

// serveTransfer handles the PUT (upload) and GET (download) of a transfer.
func serveTransfer(w http.ResponseWriter, r *http.Request) {
	id := strings.TrimPrefix(r.URL.Path, "/provbench-guest/")
	mu.Lock()
	path, ok := transfers[id]
	delete(transfers, id)
	mu.Unlock()
	if !ok {
		http.Error(w, "no such transfer", http.StatusNotFound)
		return
	}
	switch r.Method {
	case http.MethodPut:
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0700)
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
		http.ServeFile(w, r, path)
	default:
		http.Error(w, "method", http.StatusMethodNotAllowed)
	}
}

type guestFiles struct {
	mo.GuestFileManager
}

func (m *guestFiles) InitiateFileTransferToGuest(ctx *simulator.Context, req *types.InitiateFileTransferToGuest) soap.HasFault {
	body := new(methods.InitiateFileTransferToGuestBody)
	if f := auth(req.Auth); f != nil {
		body.Fault_ = fault(f)
		return body
	}
	p, ok := sandbox(req.GuestFilePath)
	if !ok {
		body.Fault_ = fault(&types.InvalidArgument{InvalidProperty: "guestFilePath"})
		return body
	}
	if _, err := os.Stat(p); err == nil && !req.Overwrite {
		body.Fault_ = fault(&types.FileAlreadyExists{})
		return body
	}
	body.Res = &types.InitiateFileTransferToGuestResponse{Returnval: transferURL(p)}
	return body
}

func (m *guestFiles) InitiateFileTransferFromGuest(ctx *simulator.Context, req *types.InitiateFileTransferFromGuest) soap.HasFault {
	body := new(methods.InitiateFileTransferFromGuestBody)
	if f := auth(req.Auth); f != nil {
		body.Fault_ = fault(f)
		return body
	}
	p, ok := sandbox(req.GuestFilePath)
	st, err := os.Stat(p)
	if !ok || err != nil {
		body.Fault_ = fault(&types.FileNotFound{})
		return body
	}
	body.Res = &types.InitiateFileTransferFromGuestResponse{
		Returnval: types.FileTransferInformation{
			Attributes: &types.GuestFileAttributes{},
			Size:       st.Size(),
			Url:        transferURL(p),
		},
	}
	return body
}

func (m *guestFiles) MakeDirectoryInGuest(ctx *simulator.Context, req *types.MakeDirectoryInGuest) soap.HasFault {
	body := new(methods.MakeDirectoryInGuestBody)
	if f := auth(req.Auth); f != nil {
		body.Fault_ = fault(f)
		return body
	}
	p, ok := sandbox(req.DirectoryPath)
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
	if f := auth(req.Auth); f != nil {
		body.Fault_ = fault(f)
		return body
	}
	p, ok := sandbox(req.GuestFilePath)
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
	if f := auth(req.Auth); f != nil {
		body.Fault_ = fault(f)
		return body
	}
	p, ok := sandbox(req.FilePath)
	if !ok || os.Remove(p) != nil {
		body.Fault_ = fault(&types.FileNotFound{})
		return body
	}
	body.Res = new(types.DeleteFileInGuestResponse)
	return body
}

func (m *guestFiles) DeleteDirectoryInGuest(ctx *simulator.Context, req *types.DeleteDirectoryInGuest) soap.HasFault {
	body := new(methods.DeleteDirectoryInGuestBody)
	if f := auth(req.Auth); f != nil {
		body.Fault_ = fault(f)
		return body
	}
	p, ok := sandbox(req.DirectoryPath)
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

func mapArgs(args string) string {
	words := strings.Fields(args)
	for i, w := range words {
		if p, ok := sandbox(w); ok {
			words[i] = p
		}
	}
	return strings.Join(words, " ")
}

func (m *guestProcs) StartProgramInGuest(ctx *simulator.Context, req *types.StartProgramInGuest) soap.HasFault {
	body := new(methods.StartProgramInGuestBody)
	if f := auth(req.Auth); f != nil {
		body.Fault_ = fault(f)
		return body
	}
	spec := req.Spec.GetGuestProgramSpec()
	prog, ok := sandbox(spec.ProgramPath)
	dir := guestRoot
	if spec.WorkingDirectory != "" {
		dir, ok = sandbox(spec.WorkingDirectory)
	}
	if !ok {
		body.Fault_ = fault(&types.FileNotFound{})
		return body
	}
	cmd := exec.Command("/bin/sh", "-c", prog+" "+mapArgs(spec.Arguments))
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), spec.EnvVariables...)
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
	if f := auth(req.Auth); f != nil {
		body.Fault_ = fault(f)
		return body
	}
	res := &types.ListProcessesInGuestResponse{}
	mu.Lock()
	for _, pid := range req.Pids {
		if p, ok := procs[pid]; ok {
			res.Returnval = append(res.Returnval, p.info)
		}
	}
	mu.Unlock()
	body.Res = res
	return body
}

func (m *guestProcs) TerminateProcessInGuest(ctx *simulator.Context, req *types.TerminateProcessInGuest) soap.HasFault {
	body := new(methods.TerminateProcessInGuestBody)
	if f := auth(req.Auth); f != nil {
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
	p.cmd.Process.Kill()
	body.Res = new(types.TerminateProcessInGuestResponse)
	return body
}

// guestDisks mirrors a reconfiguration into the sandbox, as a guest
// would see it: every disk added gets a sparse file of its capacity and a
// /dev/disk/by-id/wwn-0x<uuid> link to it (what VMware guests see with
// disk.EnableUUID=TRUE); a disk removed loses both.
func guestDisks(req *types.ReconfigVM_Task) {
	if guestRoot == "" {
		return
	}
	byID := filepath.Join(guestRoot, "dev", "disk", "by-id")
	store := filepath.Join(guestRoot, ".disks")
	os.MkdirAll(byID, 0755)
	os.MkdirAll(store, 0755)
	for _, c := range req.Spec.DeviceChange {
		spec := c.GetVirtualDeviceConfigSpec()
		disk, ok := spec.Device.(*types.VirtualDisk)
		if !ok {
			continue
		}
		uuid := ""
		switch b := disk.Backing.(type) {
		case *types.VirtualDiskFlatVer2BackingInfo:
			uuid = b.Uuid
		case *types.VirtualDiskRawDiskMappingVer1BackingInfo:
			uuid = b.Uuid
		}
		if uuid == "" {
			continue
		}
		hex := strings.ToLower(strings.ReplaceAll(uuid, "-", ""))
		link := filepath.Join(byID, "wwn-0x"+hex)
		file := filepath.Join(store, hex+".img")
		switch spec.Operation {
		case types.VirtualDeviceConfigSpecOperationAdd:
			if f, err := os.Create(file); err == nil {
				f.Truncate(disk.CapacityInKB * 1024)
				f.Close()
				os.Symlink(file, link)
			}
		case types.VirtualDeviceConfigSpecOperationRemove:
			os.Remove(link)
			os.Remove(file)
		}
	}
}

// installGuest replaces the simulator's guest managers with ours.
func installGuest(mux *http.ServeMux, port string) {
	guestPort = port
	mux.HandleFunc("/provbench-guest/", serveTransfer)
	fm := &guestFiles{}
	fm.Self = types.ManagedObjectReference{Type: "GuestFileManager", Value: "guestOperationsFileManager"}
	simulator.Map.Put(fm)
	pm := &guestProcs{}
	pm.Self = types.ManagedObjectReference{Type: "GuestProcessManager", Value: "guestOperationsProcessManager"}
	simulator.Map.Put(pm)
}
