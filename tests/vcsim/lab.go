// lab.go - VMs and hosts a run must not start on, as labs have them, and
// the parts of tasks and hosts the packaged simulator leaves out:
//
//   - -nvme-only VM: the VM's disks are on an NVMe controller and it has
//     no SCSI controller (what new Windows and Linux templates ship with,
//     hardware version 13 and later);
//   - -full-scsi VM: a device on every unit of its SCSI controller (0-15,
//     7 being the controller's own): ReconfigVM of one more is
//     InvalidDeviceSpec, as on ESXi;
//   - -no-tools VM: no VMware Tools in the guest (toolsNotInstalled, as
//     against installed and not running);
//   - -maintenance VM: the VM's host is entering maintenance mode: an
//     EnterMaintenanceMode_Task runs, waiting for the host's VMs to be
//     powered off or moved; once none is on, the host is in maintenance
//     mode (runtime.inMaintenanceMode) and PowerOnVM_Task there fails
//     with InvalidHostState ("The operation is not allowed in the current
//     state of the host"), so a VM shut down for a power cycle stays off;
//   - -esx8: vSphere 8's scsiLun list, where a disk vSAN claimed carries
//     no vsanDiskInfo: HostVsanSystem.QueryDisksForVsan says "inUse";
//   - CancelTask of a -task-delay reconfiguration (vSphere API reference,
//     Task.CancelTask): the task ends in error with RequestCanceled and no
//     disk is made; -task-uncancelable: NotSupported (info.cancelable
//     false), and the disk appears when the task ends; a task done or
//     cancelled already: InvalidState.
package main

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"strings"
	"sync"

	"github.com/vmware/govmomi/simulator"
	"github.com/vmware/govmomi/vim25/methods"
	"github.com/vmware/govmomi/vim25/soap"
	"github.com/vmware/govmomi/vim25/types"
)

var (
	nvmeOnly, fullSCSI, noTools, maintenance string
	esx8, taskUncancelable                   bool
)

// ---- VMs ----

func labVM(vm *benchVM) {
	if vm.Name == nvmeOnly {
		toNVMe(vm)
	}
	if vm.Name == fullSCSI {
		fillSCSI(vm)
	}
	if vm.Name == noTools {
		vm.Guest.ToolsStatus = types.VirtualMachineToolsStatusToolsNotInstalled
		vm.Guest.ToolsRunningStatus = string(types.VirtualMachineToolsRunningStatusGuestToolsNotRunning)
		vm.Guest.ToolsVersionStatus2 = string(types.VirtualMachineToolsVersionStatusGuestToolsNotInstalled)
	}
}

// toNVMe: the SCSI controller and what sits on it give way to an NVMe
// controller holding the VM's disks.
func toNVMe(vm *benchVM) {
	var keep []types.BaseVirtualDevice
	scsi := map[int32]bool{}
	for _, d := range vm.Config.Hardware.Device {
		if c, ok := d.(types.BaseVirtualSCSIController); ok {
			scsi[c.GetVirtualSCSIController().Key] = true
		}
	}
	const nvmeKey = 31000
	unit := int32(0)
	for _, d := range vm.Config.Hardware.Device {
		dev := d.GetVirtualDevice()
		if _, ok := d.(types.BaseVirtualSCSIController); ok {
			continue
		}
		if scsi[dev.ControllerKey] {
			if _, ok := d.(*types.VirtualDisk); !ok {
				continue // the SCSI CD-ROM goes with its controller
			}
			u := unit
			unit++
			dev.ControllerKey = nvmeKey
			dev.UnitNumber = &u
		}
		keep = append(keep, d)
	}
	keep = append(keep, &types.VirtualNVMEController{
		VirtualController: types.VirtualController{
			VirtualDevice: types.VirtualDevice{
				Key:        nvmeKey,
				DeviceInfo: &types.Description{Label: "NVME controller 0", Summary: "NVME controller 0"},
			},
		},
	})
	vm.Config.Hardware.Device = keep
}

// fillSCSI: a disk on every free unit of the first SCSI controller.
func fillSCSI(vm *benchVM) {
	var ctl int32 = -1
	used := map[int32]bool{}
	for _, d := range vm.Config.Hardware.Device {
		if c, ok := d.(types.BaseVirtualSCSIController); ok && ctl < 0 {
			ctl = c.GetVirtualSCSIController().Key
			used[c.GetVirtualSCSIController().ScsiCtlrUnitNumber] = true
		}
	}
	for _, d := range vm.Config.Hardware.Device {
		dev := d.GetVirtualDevice()
		if dev.ControllerKey == ctl && dev.UnitNumber != nil {
			used[*dev.UnitNumber] = true
		}
	}
	ds, _ := dsOf(vm.Config.Files.VmPathName)
	for u := int32(0); u < 16; u++ {
		if used[u] || u == 7 {
			continue
		}
		unit := u
		vm.Config.Hardware.Device = append(vm.Config.Hardware.Device, &types.VirtualDisk{
			VirtualDevice: types.VirtualDevice{
				Key:           2100 + u,
				DeviceInfo:    &types.Description{Label: fmt.Sprintf("Hard disk %d", 100+u), Summary: "1,048,576 KB"},
				ControllerKey: ctl,
				UnitNumber:    &unit,
				Backing: &types.VirtualDiskFlatVer2BackingInfo{
					VirtualDeviceFileBackingInfo: types.VirtualDeviceFileBackingInfo{
						FileName: fmt.Sprintf("[%s] %s/data_%d.vmdk", ds, vm.Name, u)},
					DiskMode:        "persistent",
					ThinProvisioned: types.NewBool(true),
					Uuid:            newUUID(),
				},
			},
			CapacityInKB:    1048576,
			CapacityInBytes: 1 << 30,
		})
	}
}

// ---- hosts in maintenance ----

var mmHost *simulator.HostSystem

// installMaintenance: the named VM's host is entering maintenance mode.
func installMaintenance() {
	if maintenance == "" {
		return
	}
	for _, obj := range simulator.Map.All("VirtualMachine") {
		vm := obj.(*benchVM)
		if vm.Name != maintenance || vm.Runtime.Host == nil {
			continue
		}
		h := simulator.Map.Get(*vm.Runtime.Host).(*simulator.HostSystem)
		mmHost = h
		task := simulator.CreateTask(h, "enterMaintenanceMode",
			func(*simulator.Task) (types.AnyType, types.BaseMethodFault) {
				return nil, nil
			})
		// running until the host's last VM is off: never finished here
		task.Info.State = types.TaskInfoStateRunning
		task.Info.DescriptionId = "HostSystem.enterMaintenanceMode"
		h.RecentTask = append(h.RecentTask, task.Self)
		return
	}
}

// hostOff: a VM on the entering host went off; with none on, the host is
// in maintenance mode.
func hostOff(vm *benchVM) {
	if mmHost == nil || vm.Runtime.Host == nil || *vm.Runtime.Host != mmHost.Self {
		return
	}
	for _, obj := range simulator.Map.All("VirtualMachine") {
		o := obj.(*benchVM)
		if o.Runtime.Host != nil && *o.Runtime.Host == mmHost.Self &&
			o.Runtime.PowerState == types.VirtualMachinePowerStatePoweredOn {
			return
		}
	}
	mmHost.Runtime.InMaintenanceMode = true
}

// inMaintenance: powering a VM on here fails.
func inMaintenance(vm *benchVM) bool {
	return mmHost != nil && vm.Runtime.Host != nil &&
		*vm.Runtime.Host == mmHost.Self && mmHost.Runtime.InMaintenanceMode
}

// ---- vSAN's disks on vSphere 8 ----

type vsanSystem struct {
	types.ManagedObjectReference
}

func (v *vsanSystem) Reference() types.ManagedObjectReference {
	return v.ManagedObjectReference
}

// QueryDisksForVsan: every disk of the host with its vSAN state; the
// claimed one (LUN 4) "inUse".
func (v *vsanSystem) QueryDisksForVsan(ctx *simulator.Context, req *types.QueryDisksForVsan) soap.HasFault {
	body := &methods.QueryDisksForVsanBody{Res: &types.QueryDisksForVsanResponse{}}
	for _, obj := range simulator.Map.All("HostSystem") {
		h := obj.(*simulator.HostSystem)
		for _, l := range h.Config.StorageDevice.ScsiLun {
			d, ok := l.(*types.HostScsiDisk)
			if !ok {
				continue
			}
			want := len(req.CanonicalName) == 0
			for _, n := range req.CanonicalName {
				want = want || n == d.CanonicalName
			}
			if !want {
				continue
			}
			state := "eligible"
			if d.CanonicalName == vsanClaimed {
				state = "inUse"
			} else if d.LocalDisk != nil && *d.LocalDisk {
				state = "ineligible"
			}
			body.Res.Returnval = append(body.Res.Returnval,
				types.VsanHostDiskResult{State: state, Disk: *d})
		}
		break // one host's view: the LUNs are alike on every host
	}
	return body
}

func installVsanSystems() {
	seen := map[string]bool{}
	for _, obj := range simulator.Map.All("HostSystem") {
		h := obj.(*simulator.HostSystem)
		if h.ConfigManager.VsanSystem == nil || seen[h.ConfigManager.VsanSystem.Value] {
			continue
		}
		seen[h.ConfigManager.VsanSystem.Value] = true
		simulator.Map.Put(&vsanSystem{*h.ConfigManager.VsanSystem})
	}
}

// ---- cancelling a slow task ----

var (
	cancelMu   sync.Mutex
	cancelable = map[string]chan struct{}{} // running slow tasks
)

func taskStarted(ref types.ManagedObjectReference) chan struct{} {
	c := make(chan struct{})
	cancelMu.Lock()
	cancelable[ref.Value] = c
	cancelMu.Unlock()
	return c
}

func taskEnded(ref types.ManagedObjectReference) {
	cancelMu.Lock()
	delete(cancelable, ref.Value)
	cancelMu.Unlock()
}

var thisRe = regexp.MustCompile(`<_this[^>]*>([^<]+)</_this>`)

const soapHead = `<?xml version="1.0" encoding="UTF-8"?>
<soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/" xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"><soapenv:Body>`
const soapTail = `</soapenv:Body></soapenv:Envelope>`

func soapFault(w http.ResponseWriter, kind, msg string) {
	w.Header().Set("Content-Type", "text/xml; charset=utf-8")
	w.WriteHeader(http.StatusInternalServerError)
	fmt.Fprintf(w, `%s<soapenv:Fault><faultcode>ServerFaultCode</faultcode><faultstring>%s</faultstring><detail><%sFault xmlns="urn:vim25" xsi:type="%s"></%sFault></detail></soapenv:Fault>%s`,
		soapHead, msg, kind, kind, kind, soapTail)
}

// cancels answers CancelTask for the slow tasks (the packaged simulator
// has no CancelTask).
func cancels(inner http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || !strings.HasSuffix(r.URL.Path, "/sdk") {
			inner.ServeHTTP(w, r)
			return
		}
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body))
		if !bytes.Contains(body, []byte("<CancelTask")) {
			inner.ServeHTTP(w, r)
			return
		}
		m := thisRe.FindSubmatch(body)
		cancelMu.Lock()
		c, ok := cancelable[string(m[1])]
		if ok && !taskUncancelable {
			delete(cancelable, string(m[1]))
		}
		cancelMu.Unlock()
		switch {
		case !ok:
			soapFault(w, "InvalidState", "The operation is not allowed in the current state.")
		case taskUncancelable:
			soapFault(w, "NotSupported", "The operation is not supported on the object.")
		default:
			close(c)
			w.Header().Set("Content-Type", "text/xml; charset=utf-8")
			fmt.Fprintf(w, `%s<CancelTaskResponse xmlns="urn:vim25"></CancelTaskResponse>%s`, soapHead, soapTail)
		}
	})
}
