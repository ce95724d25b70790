// storage.go - the datastores as labs have them, and what each makes of a
// disk request (vSphere Storage, "About virtual disk provisioning
// policies" and "Disk formats on NFS datastores"; govmomi issue 654 and
// terraform-provider-vsphere issue 817 for vSAN's top level):
//
//   - every datastore is VMFS 6 (VmfsDatastoreInfo, raw disk mappings
//     supported, VAAI supported), as a lab's block datastores are; the
//     packaged simulator calls its local datastores "OTHER", without RDMs.
//     Its space reclamation is a VMFS6 volume's default (vSphere Storage,
//     "Space Reclamation Requests from VMFS Datastores"; govmomi's capture
//     of a real ESXi host): priority low, 1 MB granularity (unmapGranularity
//     1024 KB, the block size), no bandwidth spec;
//   - -nfs NAME: NAME is an NFS 3 datastore (NasDatastoreInfo). Without
//     the VAAI-NAS plugin (QueryConfigTarget says vStorageUnsupported) a
//     disk comes back thin whatever was asked; -nfs-vaai: with it, lazy
//     and eager are made as asked. Never an RDM's mapping file there
//     (rawDiskMappingsSupported false): InvalidDeviceBacking;
//   - -vsan NAME: NAME is a vSAN datastore (VsanDatastoreInfo). Folders at
//     its top level are namespace objects, made with
//     DatastoreNamespaceManager.CreateDirectory
//     (topLevelDirectoryCreateSupported false); a disk file at the top
//     level fails its task ("Error creating disk Function not
//     implemented"). The disk's flags are kept as asked, but the storage
//     policy decides what is reserved (pbm.go): the default policy
//     reserves nothing;
//   - -pod: a datastore cluster DC0_POD0 (a StoragePod, vCenter only)
//     holds every datastore but LocalDS_0.
package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/vmware/govmomi/simulator"
	"github.com/vmware/govmomi/vim25/methods"
	"github.com/vmware/govmomi/vim25/soap"
	"github.com/vmware/govmomi/vim25/types"
)

var (
	nfsName  string
	nfsVAAI  bool
	vsanName string
	withPod  bool
)

// the storage policy each vSAN disk file was made with (pbm.go reads it)
var diskPolicy = map[string]string{}

func dsOf(file string) (string, string) {
	if !strings.HasPrefix(file, "[") {
		return "", file
	}
	end := strings.Index(file, "]")
	if end < 0 {
		return "", file
	}
	return file[1:end], strings.TrimLeft(file[end+1:], " /")
}

// vaaiOf: what QueryConfigTarget says of a datastore's hardware
// acceleration (VirtualMachineDatastoreInfo.vStorageSupport).
func vaaiOf(name string) string {
	if name == nfsName && !nfsVAAI {
		return string(types.FileSystemMountInfoVStorageSupportStatusVStorageUnsupported)
	}
	return string(types.FileSystemMountInfoVStorageSupportStatusVStorageSupported)
}

func installDatastores() {
	var rest []types.ManagedObjectReference
	for _, obj := range simulator.Map.All("Datastore") {
		ds := obj.(*simulator.Datastore)
		info := ds.Info.GetDatastoreInfo()
		base := *info
		capacity := ds.Summary.Capacity
		switch ds.Name {
		case nfsName:
			ds.Summary.Type = string(types.HostFileSystemVolumeFileSystemTypeNFS)
			ds.Info = &types.NasDatastoreInfo{DatastoreInfo: base,
				Nas: &types.HostNasVolume{
					HostFileSystemVolume: types.HostFileSystemVolume{
						Type: "NFS", Name: ds.Name, Capacity: capacity},
					RemoteHost: "zfs01.lab", RemotePath: "/tank/vmware"}}
			ds.Capability.PerFileThinProvisioningSupported = false
			ds.Capability.RawDiskMappingsSupported = false
		case vsanName:
			ds.Summary.Type = "vsan"
			ds.Info = &types.VsanDatastoreInfo{DatastoreInfo: base,
				MembershipUuid: "52e1c8b0-0000-0000-0000-00000000c001"}
			ds.Capability.RawDiskMappingsSupported = false
			ds.Capability.TopLevelDirectoryCreateSupported = types.NewBool(false)
		default:
			ds.Summary.Type = string(types.HostFileSystemVolumeFileSystemTypeVMFS)
			ds.Info = &types.VmfsDatastoreInfo{DatastoreInfo: base,
				Vmfs: &types.HostVmfsVolume{
					HostFileSystemVolume: types.HostFileSystemVolume{
						Type: "VMFS", Name: ds.Name, Capacity: capacity},
					BlockSizeMb: 1, BlockSize: 1024, MajorVersion: 6, Version: "6.82",
					// a VMFS6 volume's defaults, as a real
					// host reports them (govmomi's ESXi
					// capture): 1 MB granularity, low
					// priority, no bandwidth spec
					UnmapGranularity: 1024, UnmapPriority: "low",
					Uuid: "5f1e2d3c-0000-0000-0000-" + fmt.Sprintf("%012d", len(ds.Name))}}
			if ds.Name == "LocalDS_0" {
				// ESXi's installer makes its local datastore on
				// the boot disk: the LUN its disk.* counters name
				ds.Info.(*types.VmfsDatastoreInfo).Vmfs.Extent = []types.HostScsiDiskPartition{{
					DiskName: bootDisk, Partition: 3}}
			}
			ds.Capability.RawDiskMappingsSupported = true
		}
		if ds.Name != "LocalDS_0" {
			rest = append(rest, ds.Self)
		}
	}
	if withPod && !esxMode {
		for _, obj := range simulator.Map.All("StoragePod") {
			pod := obj.(*simulator.StoragePod)
			pod.ChildEntity = append(pod.ChildEntity, rest...)
		}
	}
}

// storageAdd: what the datastore makes of a disk being added, or the
// fault its task fails with.
func storageAdd(spec *types.VirtualDeviceConfigSpec, disk *types.VirtualDisk) types.BaseMethodFault {
	var file string
	switch b := disk.Backing.(type) {
	case *types.VirtualDiskFlatVer2BackingInfo:
		file = b.FileName
	case *types.VirtualDiskRawDiskMappingVer1BackingInfo:
		file = b.FileName
	}
	name, rel := dsOf(file)
	_, rdm := disk.Backing.(*types.VirtualDiskRawDiskMappingVer1BackingInfo)
	if rdm && (name == nfsName || name == vsanName) && name != "" {
		return &types.InvalidDeviceBacking{InvalidDeviceSpec: types.InvalidDeviceSpec{
			InvalidVmConfig: types.InvalidVmConfig{Property: "virtualDisk.backing"}}}
	}
	switch {
	case name == nfsName && name != "" && !nfsVAAI:
		// the NFS server allocates: thin whatever was asked
		b := disk.Backing.(*types.VirtualDiskFlatVer2BackingInfo)
		b.ThinProvisioned = types.NewBool(true)
		b.EagerlyScrub = types.NewBool(false)
	case name == vsanName && name != "":
		if !strings.Contains(rel, "/") {
			return &types.SystemError{Reason: "Error creating disk Function not implemented"}
		}
		policy := vsanDefaultPolicy
		for _, p := range spec.Profile {
			if d, ok := p.(*types.VirtualMachineDefinedProfileSpec); ok {
				policy = d.ProfileId
			}
		}
		diskPolicy[file] = policy
	}
	return nil
}

// namespaces is DatastoreNamespaceManager: a folder at the top of a vSAN
// datastore is a namespace object, made here.
type namespaces struct {
	types.ManagedObjectReference
}

func (n *namespaces) Reference() types.ManagedObjectReference {
	return n.ManagedObjectReference
}

func (n *namespaces) CreateDirectory(ctx *simulator.Context, req *types.CreateDirectory) soap.HasFault {
	body := &methods.CreateDirectoryBody{}
	ds, ok := simulator.Map.Get(req.Datastore).(*simulator.Datastore)
	if !ok {
		body.Fault_ = simulator.Fault("", &types.ManagedObjectNotFound{Obj: req.Datastore})
		return body
	}
	if ds.Name != vsanName {
		// VMFS and NFS make folders with FileManager.MakeDirectory
		body.Fault_ = simulator.Fault("", &types.NotSupported{})
		return body
	}
	dir := filepath.Join(ds.Info.GetDatastoreInfo().Url, req.DisplayName)
	if _, err := os.Stat(dir); err == nil {
		body.Fault_ = simulator.Fault("", &types.FileAlreadyExists{
			FileFault: types.FileFault{File: req.DisplayName}})
		return body
	}
	if err := os.MkdirAll(dir, 0755); err != nil {
		body.Fault_ = simulator.Fault(err.Error(), &types.CannotCreateFile{
			FileFault: types.FileFault{File: req.DisplayName}})
		return body
	}
	body.Res = &types.CreateDirectoryResponse{
		Returnval: "/vmfs/volumes/vsan:52e1c8b0c001/" + req.DisplayName}
	return body
}

func installNamespaces() {
	if vsanName == "" {
		return
	}
	simulator.Map.Put(&namespaces{types.ManagedObjectReference{
		Type: "DatastoreNamespaceManager", Value: "DatastoreNamespaceManager"}})
}
