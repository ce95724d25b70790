// vm.go - the test VMs: reconfiguration as ESXi does it (uuids for new
// disks, one device per controller unit, RDM backings the packaged
// simulator cannot lay out), and power operations with their real timing:
// ShutdownGuest only asks the guest to shut down, Tools come back a moment
// after a power-on, and extraConfig takes effect at power-on, not when it
// is set (govmomi issue 1477: disk.EnableUUID set on a running VM does not
// show disk serials until the VM is power-cycled).
package main

import (
	"crypto/rand"
	"fmt"
	"strings"
	"time"

	"github.com/vmware/govmomi/simulator"
	"github.com/vmware/govmomi/vim25/methods"
	"github.com/vmware/govmomi/vim25/soap"
	"github.com/vmware/govmomi/vim25/types"
)

// benchVM extends the simulator's VM. It embeds it by value: the property
// collector digs the mo type out through first struct fields, which a
// pointer would stop.
type benchVM struct {
	simulator.VirtualMachine
	// extraConfig as it was when the VM last powered on: what is live
	bootExtra map[string]string
	// the disks reconfigurations added, as the guest would see them
	disks map[string]guestDisk
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

func extraConfig(vm *simulator.VirtualMachine) map[string]string {
	m := map[string]string{}
	for _, o := range vm.Config.ExtraConfig {
		ov := o.GetOptionValue()
		if s, ok := ov.Value.(string); ok {
			m[ov.Key] = s
		}
	}
	return m
}

// uuidLive: the guest sees disk serials (disk.EnableUUID at power-on).
func (vm *benchVM) uuidLive() bool {
	return strings.EqualFold(vm.bootExtra["disk.EnableUUID"], "true")
}

func (vm *benchVM) toolsRunning() bool {
	return vm.Runtime.PowerState == types.VirtualMachinePowerStatePoweredOn &&
		vm.Guest.ToolsRunningStatus == string(types.VirtualMachineToolsRunningStatusGuestToolsRunning)
}

// unitTaken: ESXi refuses any device on a controller unit already in use,
// whatever its type (the packaged simulator only compares same types).
func (vm *benchVM) unitTaken(d *types.VirtualDevice) bool {
	if d.UnitNumber == nil {
		return false
	}
	for _, x := range vm.Config.Hardware.Device {
		o := x.GetVirtualDevice()
		if o.Key != d.Key && o.ControllerKey == d.ControllerKey &&
			o.UnitNumber != nil && *o.UnitNumber == *d.UnitNumber {
			return true
		}
	}
	return false
}

// localized: the message a real server puts in a task's error (the
// packaged simulator puts the Go type's name there).
func localized(f types.BaseMethodFault) string {
	switch e := f.(type) {
	case *types.SystemError:
		return "A general system error occurred: " + e.Reason
	case *types.InsufficientStorageSpace:
		return "Insufficient disk space on datastore ''."
	case *types.InvalidDeviceBacking:
		return "Incompatible device backing specified for device '0'."
	case *types.InvalidHostState:
		return "The operation is not allowed in the current state of the host."
	}
	return ""
}

func failedTask(ref types.ManagedObjectReference, f types.BaseMethodFault) soap.HasFault {
	task := simulator.CreateTask(ref, "reconfigVm",
		func(*simulator.Task) (types.AnyType, types.BaseMethodFault) {
			return nil, f
		})
	done := task.Run()
	if msg := localized(f); msg != "" && task.Info.Error != nil {
		task.Info.Error.LocalizedMessage = msg
	}
	return &methods.ReconfigVM_TaskBody{
		Res: &types.ReconfigVM_TaskResponse{Returnval: done},
	}
}

func (vm *benchVM) ReconfigVMTask(ctx *simulator.Context, req *types.ReconfigVM_Task) soap.HasFault {
	for i, c := range req.Spec.DeviceChange {
		spec := c.GetVirtualDeviceConfigSpec()
		if spec.Operation == types.VirtualDeviceConfigSpecOperationAdd &&
			vm.unitTaken(spec.Device.GetVirtualDevice()) {
			return &methods.ReconfigVM_TaskBody{Fault_: simulator.Fault(
				fmt.Sprintf("Invalid configuration for device '%d'.", i),
				&types.InvalidDeviceSpec{DeviceIndex: int32(i)})}
		}
	}
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
			return failedTask(req.This, &types.InsufficientStorageSpace{})
		}
		if f := storageAdd(spec, disk); f != nil {
			restore(rdms)
			return failedTask(req.This, f)
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
	done := func() {
		restore(rdms)
		vm.trackDisks(req)
	}
	if taskDelay == 0 {
		res := vm.VirtualMachine.ReconfigVMTask(ctx, req)
		done()
		return res
	}
	// A slow task, as eager-zeroing on real storage is: queued, running
	// at 50%, then done; clients must wait on it, not find it finished.
	var cancel chan struct{}
	task := simulator.CreateTask(req.This, "reconfigVm",
		func(t *simulator.Task) (types.AnyType, types.BaseMethodFault) {
			defer taskEnded(t.Self)
			select {
			case <-time.After(taskDelay / 2):
			case <-cancel:
				restore(rdms)
				return nil, &types.RequestCanceled{}
			}
			simulator.Map.Update(t, []types.PropertyChange{
				{Name: "info.progress", Val: int32(50)}})
			select {
			case <-time.After(taskDelay / 2):
			case <-cancel:
				restore(rdms)
				return nil, &types.RequestCanceled{}
			}
			body := vm.VirtualMachine.ReconfigVMTask(ctx, req).(*methods.ReconfigVM_TaskBody)
			done()
			inner := simulator.Map.Get(body.Res.Returnval).(*simulator.Task)
			if inner.Info.Error != nil {
				return nil, inner.Info.Error.Fault
			}
			return nil, nil
		})
	task.Info.Cancelable = !taskUncancelable
	cancel = taskStarted(task.Self)
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

// setPower changes the power state (and Tools with it) as a property
// change clients waiting with WaitForUpdatesEx are told of. Inside a SOAP
// method the simulator holds the VM's lock already; later (a timer) it
// must be taken.
func (vm *benchVM) setPower(state types.VirtualMachinePowerState, tools string) {
	simulator.Map.Update(vm, []types.PropertyChange{
		{Name: "runtime.powerState", Val: state},
		{Name: "summary.runtime.powerState", Val: state},
		{Name: "guest.toolsRunningStatus", Val: tools},
	})
}

func (vm *benchVM) later(d time.Duration, f func()) {
	time.AfterFunc(d, func() { simulator.Map.WithLock(vm, f) })
}

// toolsStart: Tools report running a moment after the guest booted.
func (vm *benchVM) toolsStart() {
	if guestRoot == "" {
		return
	}
	vm.later(bootDelay, func() {
		if vm.Runtime.PowerState != types.VirtualMachinePowerStatePoweredOn {
			return
		}
		vm.setPower(types.VirtualMachinePowerStatePoweredOn,
			string(types.VirtualMachineToolsRunningStatusGuestToolsRunning))
	})
}

const toolsNotRunning = string(types.VirtualMachineToolsRunningStatusGuestToolsNotRunning)

// ShutdownGuest asks the guest OS to shut down and returns at once; the
// VM powers off when the guest is done (here, a moment later).
func (vm *benchVM) ShutdownGuest(ctx *simulator.Context, req *types.ShutdownGuest) soap.HasFault {
	body := &methods.ShutdownGuestBody{}
	if vm.Runtime.PowerState != types.VirtualMachinePowerStatePoweredOn {
		body.Fault_ = simulator.Fault("", &types.InvalidPowerState{
			RequestedState: types.VirtualMachinePowerStatePoweredOn,
			ExistingState:  vm.Runtime.PowerState})
		return body
	}
	if !vm.toolsRunning() {
		body.Fault_ = simulator.Fault("VMware Tools is not running.",
			&types.ToolsUnavailable{})
		return body
	}
	vm.setPower(types.VirtualMachinePowerStatePoweredOn, toolsNotRunning)
	vm.later(bootDelay, func() {
		vm.setPower(types.VirtualMachinePowerStatePoweredOff, toolsNotRunning)
		hostOff(vm)
	})
	body.Res = new(types.ShutdownGuestResponse)
	return body
}

// PowerOnVMTask boots the VM with its extraConfig as it is now.
func (vm *benchVM) PowerOnVMTask(ctx *simulator.Context, req *types.PowerOnVM_Task) soap.HasFault {
	if inMaintenance(vm) {
		f := &types.InvalidHostState{Host: vm.Runtime.Host}
		task := simulator.CreateTask(req.This, "powerOn",
			func(*simulator.Task) (types.AnyType, types.BaseMethodFault) {
				return nil, f
			})
		done := task.Run()
		if task.Info.Error != nil {
			task.Info.Error.LocalizedMessage = localized(f)
		}
		return &methods.PowerOnVM_TaskBody{
			Res: &types.PowerOnVM_TaskResponse{Returnval: done}}
	}
	body := vm.VirtualMachine.PowerOnVMTask(ctx, req).(*methods.PowerOnVM_TaskBody)
	if body.Res != nil {
		t := simulator.Map.Get(body.Res.Returnval).(*simulator.Task)
		if t.Info.Error == nil {
			vm.bootExtra = extraConfig(&vm.VirtualMachine)
			vm.setPower(types.VirtualMachinePowerStatePoweredOn, toolsNotRunning)
			syncGuestDisks(vm)
			vm.toolsStart()
		}
	}
	return body
}

func (vm *benchVM) PowerOffVMTask(ctx *simulator.Context, req *types.PowerOffVM_Task) soap.HasFault {
	body := vm.VirtualMachine.PowerOffVMTask(ctx, req)
	vm.setPower(vm.Runtime.PowerState, toolsNotRunning)
	hostOff(vm)
	return body
}

// scsiCdrom puts a CD-ROM on the VM's SCSI controller, unit 1: labs have
// them, and a free-unit search that counts only disks collides with it.
func scsiCdrom(vm *benchVM) {
	var ctl int32 = -1
	for _, d := range vm.Config.Hardware.Device {
		if c, ok := d.(types.BaseVirtualSCSIController); ok {
			ctl = c.GetVirtualSCSIController().Key
			break
		}
	}
	if ctl < 0 {
		return
	}
	unit := int32(1)
	vm.Config.Hardware.Device = append(vm.Config.Hardware.Device, &types.VirtualCdrom{
		VirtualDevice: types.VirtualDevice{
			Key:           16100,
			DeviceInfo:    &types.Description{Label: "CD/DVD drive 2", Summary: "Remote device"},
			ControllerKey: ctl,
			UnitNumber:    &unit,
			Backing: &types.VirtualCdromRemotePassthroughBackingInfo{
				VirtualDeviceRemoteDeviceBackingInfo: types.VirtualDeviceRemoteDeviceBackingInfo{
					UseAutoDetect: types.NewBool(false)},
			},
		},
	})
}

func installVMs(snapshot bool) {
	for _, obj := range simulator.Map.All("VirtualMachine") {
		vm := &benchVM{VirtualMachine: *obj.(*simulator.VirtualMachine),
			disks: map[string]guestDisk{}}
		scsiCdrom(vm)
		if snapshot {
			// what vSphere shows of a VM with one snapshot
			snap := types.ManagedObjectReference{Type: "VirtualMachineSnapshot",
				Value: "snapshot-" + vm.Self.Value}
			vm.Snapshot = &types.VirtualMachineSnapshotInfo{
				CurrentSnapshot: &snap,
				RootSnapshotList: []types.VirtualMachineSnapshotTree{{
					Snapshot: snap, Vm: vm.Self, Name: "before upgrade",
					CreateTime: time.Now().Add(-24 * time.Hour),
					State:      types.VirtualMachinePowerStatePoweredOn,
				}},
			}
			vm.RootSnapshot = []types.ManagedObjectReference{snap}
		}
		if enableUUID {
			// a lab VM prepared beforehand: set, then powered on
			vm.Config.ExtraConfig = append(vm.Config.ExtraConfig,
				&types.OptionValue{Key: "disk.EnableUUID", Value: "TRUE"})
		}
		vm.bootExtra = extraConfig(&vm.VirtualMachine)
		if isWindowsName(vm.Name) {
			// what Tools in a Windows Server 2019 guest report
			vm.Guest.GuestFamily = string(types.VirtualMachineGuestOsFamilyWindowsGuest)
			vm.Guest.GuestId = string(types.VirtualMachineGuestOsIdentifierWindows2019srv_64Guest)
			vm.Guest.GuestFullName = "Microsoft Windows Server 2019 (64-bit)"
			vm.Config.GuestId = vm.Guest.GuestId
			vm.Config.GuestFullName = vm.Guest.GuestFullName
		}
		if guestRoot != "" {
			// the sandbox is the guest: its Tools answer
			vm.Guest.ToolsRunningStatus = string(types.VirtualMachineToolsRunningStatusGuestToolsRunning)
			vm.Guest.ToolsStatus = types.VirtualMachineToolsStatusToolsOk
		}
		labVM(vm)
		simulator.Map.Put(vm)
	}
}
