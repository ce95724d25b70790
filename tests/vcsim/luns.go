// luns.go - the SCSI devices of every host, as ESXi lists them in
// config.storageDevice.scsiLun, and the subset
// EnvironmentBrowser.QueryConfigTarget offers for raw device mappings
// (ConfigTarget.scsiDisk, what govc vm.rdm.ls/attach use and what the
// vSphere Client's "RDM disk" dialog shows): never a CD-ROM, the local
// boot disk, a disk vSAN has claimed, a LUN holding a VMFS extent, or one
// a VM already maps (govmomi issue 2594: "can not list the RDM devices
// which is used by another VM").
package main

import (
	"fmt"

	"github.com/vmware/govmomi/simulator"
	"github.com/vmware/govmomi/simulator/esx"
	"github.com/vmware/govmomi/vim25/methods"
	"github.com/vmware/govmomi/vim25/mo"
	"github.com/vmware/govmomi/vim25/soap"
	"github.com/vmware/govmomi/vim25/types"
)

const gib = int64(1) << 30

// the disk vSAN has claimed (LUN 4)
const vsanClaimed = "naa.6000c290000000000000000000000004"

// the local boot disk (LUN 5), which holds LocalDS_0 (storage.go)
const bootDisk = "naa.6000c290000000000000000000000005"

// lun is one SCSI disk of an array, as ESXi describes it.
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
			Descriptor: []types.ScsiLunDescriptor{
				{Quality: "highQuality", Id: naa},
				{Quality: "mediumQuality", Id: "vml.02000000" + naa[4:] + "566972747561"},
			},
		},
		Capacity: types.HostDiskDimensionsLba{
			BlockSize: 512,
			Block:     sizeGiB * gib / 512,
		},
		DevicePath: "/vmfs/devices/disks/" + naa,
		LocalDisk:  types.NewBool(false),
	}
}

// The LUNs of the tests: 1 and 2 free, 3 a VMFS extent, 4 claimed by
// vSAN, 5 the local boot disk; and a CD-ROM.
func addLUNs() {
	sd := esx.HostConfigInfo.StorageDevice
	for n := 1; n <= 3; n++ {
		sd.ScsiLun = append(sd.ScsiLun, lun(n, int64(8*n)))
	}
	vsan := lun(4, 16)
	if !esx8 {
		// vSphere 8 lists a claimed disk without it (lab.go)
		vsan.VsanDiskInfo = &types.VsanHostVsanDiskInfo{
			VsanUuid: "52a1f2a4-0000-0000-0000-000000000004", FormatVersion: 10}
	}
	vsan.Ssd = types.NewBool(true)
	vsan.LocalDisk = types.NewBool(true) // vSAN claims a host's own disks
	boot := lun(5, 32)
	boot.LocalDisk = types.NewBool(true)
	boot.Vendor, boot.Model = "ATA", "Boot SSD"
	boot.DisplayName = "Local ATA Disk (" + boot.CanonicalName + ")"
	cd := &types.ScsiLun{
		HostDevice: types.HostDevice{
			DeviceName: "/vmfs/devices/cdrom/mpx.vmhba32:C0:T0:L0",
			DeviceType: "cdrom",
		},
		Key:           "key-vim.host.ScsiLun-0005000000766d68626133323a303a30",
		Uuid:          "0005000000766d68626133323a303a30",
		CanonicalName: "mpx.vmhba32:C0:T0:L0",
		DisplayName:   "Local NECVMWar CD-ROM (mpx.vmhba32:C0:T0:L0)",
		LunType:       "cdrom",
		Vendor:        "NECVMWar",
		Model:         "VMware IDE CDR10",
	}
	sd.ScsiLun = append(sd.ScsiLun, vsan, boot, cd)
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

// mapped reports whether any VM maps the LUN as an RDM.
func mapped(l *types.HostScsiDisk) bool {
	for _, obj := range simulator.Map.All("VirtualMachine") {
		vm := obj.(*benchVM)
		for _, d := range vm.Config.Hardware.Device {
			disk, ok := d.(*types.VirtualDisk)
			if !ok {
				continue
			}
			b, ok := disk.Backing.(*types.VirtualDiskRawDiskMappingVer1BackingInfo)
			if ok && (b.LunUuid == l.Uuid || b.DeviceName == l.DeviceName) {
				return true
			}
		}
	}
	return false
}

// rdmCandidates are the host's disks QueryConfigTarget offers.
func rdmCandidates(h *simulator.HostSystem) []types.VirtualMachineScsiDiskDeviceInfo {
	var out []types.VirtualMachineScsiDiskDeviceInfo
	extents := map[string]bool{}
	if fsv := h.Config.FileSystemVolume; fsv != nil {
		for _, m := range fsv.MountInfo {
			if v, ok := m.Volume.(*types.HostVmfsVolume); ok {
				for _, e := range v.Extent {
					extents[e.DiskName] = true
				}
			}
		}
	}
	for i, l := range h.Config.StorageDevice.ScsiLun {
		d, ok := l.(*types.HostScsiDisk)
		if !ok || d.LunType != "disk" || d.VsanDiskInfo != nil ||
			d.CanonicalName == vsanClaimed ||
			(d.LocalDisk != nil && *d.LocalDisk) ||
			extents[d.CanonicalName] || mapped(d) {
			continue
		}
		out = append(out, types.VirtualMachineScsiDiskDeviceInfo{
			VirtualMachineDiskDeviceInfo: types.VirtualMachineDiskDeviceInfo{
				VirtualMachineTargetInfo: types.VirtualMachineTargetInfo{
					Name: d.DeviceName,
				},
				Capacity: d.Capacity.Block * int64(d.Capacity.BlockSize) / 1024,
			},
			Disk:      d,
			LunNumber: int32(i),
		})
	}
	return out
}

type configTarget struct {
	simulator.EnvironmentBrowser
}

// hostsOf are the hosts of the compute resource that owns browser b.
func hostsOf(b types.ManagedObjectReference) []types.ManagedObjectReference {
	for _, obj := range simulator.Map.All("ComputeResource") {
		if cr, ok := obj.(*mo.ComputeResource); ok &&
			cr.EnvironmentBrowser != nil && *cr.EnvironmentBrowser == b {
			return cr.Host
		}
	}
	for _, obj := range simulator.Map.All("ClusterComputeResource") {
		if cr, ok := obj.(*simulator.ClusterComputeResource); ok &&
			cr.EnvironmentBrowser != nil && *cr.EnvironmentBrowser == b {
			return cr.Host
		}
	}
	return nil
}

func (b *configTarget) QueryConfigTarget(ctx *simulator.Context, req *types.QueryConfigTarget) soap.HasFault {
	body := b.EnvironmentBrowser.QueryConfigTarget(ctx, req).(*methods.QueryConfigTargetBody)
	hosts := hostsOf(b.Self)
	if req.Host != nil {
		hosts = []types.ManagedObjectReference{*req.Host}
	}
	for _, ref := range hosts {
		if h, ok := simulator.Map.Get(ref).(*simulator.HostSystem); ok {
			body.Res.Returnval.ScsiDisk = append(body.Res.Returnval.ScsiDisk,
				rdmCandidates(h)...)
		}
	}
	// hardware acceleration as each datastore has it (storage.go); the
	// packaged simulator says vStorageUnsupported of all
	for i := range body.Res.Returnval.Datastore {
		d := &body.Res.Returnval.Datastore[i]
		d.VStorageSupport = vaaiOf(d.Name)
		if ds, ok := simulator.Map.Get(*d.Datastore.Datastore).(*simulator.Datastore); ok {
			d.Datastore = ds.Summary
			d.Capability = ds.Capability
		}
	}
	return body
}

// browsers are the environment browsers of every compute resource.
func browsers() []types.ManagedObjectReference {
	var refs []types.ManagedObjectReference
	for _, obj := range simulator.Map.All("ComputeResource") {
		if cr, ok := obj.(*mo.ComputeResource); ok && cr.EnvironmentBrowser != nil {
			refs = append(refs, *cr.EnvironmentBrowser)
		}
	}
	for _, obj := range simulator.Map.All("ClusterComputeResource") {
		if cr, ok := obj.(*simulator.ClusterComputeResource); ok && cr.EnvironmentBrowser != nil {
			refs = append(refs, *cr.EnvironmentBrowser)
		}
	}
	return refs
}

func installConfigTargets() {
	for _, ref := range browsers() {
		if eb, ok := simulator.Map.Get(ref).(*simulator.EnvironmentBrowser); ok {
			simulator.Map.Put(&configTarget{*eb})
		}
	}
}
