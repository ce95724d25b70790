// reclaim.go - what a VM's disk files hold on their datastore, as
// RefreshStorageInfo refreshes layoutEx (vSphere Storage, "Space
// Reclamation Requests from Guest Operating Systems" and "Space
// Reclamation Requests from VMFS Datastores"):
//
//   - a thick disk (eager or lazy) holds its capacity, whatever its guest
//     writes or discards: it offers the guest no discard;
//   - a thin disk's file holds what its guest wrote, allocated as it is
//     written;
//   - what a guest's discard frees on VMFS 6 comes back asynchronously,
//     at the datastore's reclamation rate (priority low: 25 to 50 MB/s;
//     -reclaim-mbs), counted from the first refresh that sees it, never
//     on the call;
//   - a disk on the NFS datastore gives nothing back (NFS 3 takes no
//     guest discard before VCF 9).
//
// The guest's disk is the sandbox's file (guest.go): what the runner
// wrote and punched there is what the guest did.
package main

import (
	"strings"
	"syscall"
	"time"

	"github.com/vmware/govmomi/simulator"
	"github.com/vmware/govmomi/vim25/methods"
	"github.com/vmware/govmomi/vim25/soap"
	"github.com/vmware/govmomi/vim25/types"
)

var reclaimMBs = 25.0

// what a disk file held at the last refresh, and, while space is coming
// back, from what and since when
type heldFile struct {
	bytes, from int64
	since       time.Time
}

var held = map[string]*heldFile{}

func allocatedBytes(path string) int64 {
	var st syscall.Stat_t
	if syscall.Stat(path, &st) != nil {
		return 0
	}
	return st.Blocks * 512
}

// heldNow: what the disk file holds at now, given what its guest's disk
// holds (want)
func heldNow(name string, want int64, givesBack bool, now time.Time) int64 {
	h := held[name]
	if h == nil {
		h = &heldFile{bytes: want}
		held[name] = h
	}
	switch {
	case want >= h.bytes:
		h.bytes, h.from = want, 0
	case !givesBack:
	default:
		if h.from == 0 {
			h.from, h.since = h.bytes, now
		}
		back := int64(reclaimMBs * 1e6 * now.Sub(h.since).Seconds())
		h.bytes = h.from - back
		if h.bytes <= want {
			h.bytes, h.from = want, 0
		}
	}
	return h.bytes
}

func (vm *benchVM) RefreshStorageInfo(ctx *simulator.Context, req *types.RefreshStorageInfo) soap.HasFault {
	now := time.Now()
	for _, dev := range vm.Config.Hardware.Device {
		disk, ok := dev.(*types.VirtualDisk)
		if !ok {
			continue
		}
		b, ok := disk.Backing.(*types.VirtualDiskFlatVer2BackingInfo)
		if !ok {
			continue
		}
		thin := b.ThinProvisioned != nil && *b.ThinProvisioned
		want := disk.CapacityInKB * 1024
		if thin {
			hex := strings.ToLower(strings.ReplaceAll(b.Uuid, "-", ""))
			want = 0
			if d, ok := vm.disks[hex]; ok {
				want = allocatedBytes(d.file)
			}
		}
		ds, _ := dsOf(b.FileName)
		bytes := heldNow(b.FileName, want, thin && ds != nfsName, now)
		// the extent holds the data, the descriptor a few hundred bytes
		extent := strings.TrimSuffix(b.FileName, ".vmdk") + "-flat.vmdk"
		for i := range vm.LayoutEx.File {
			if vm.LayoutEx.File[i].Name == extent {
				vm.LayoutEx.File[i].UniqueSize = bytes
				vm.LayoutEx.File[i].Size = bytes
			}
		}
	}
	vm.LayoutEx.Timestamp = now
	return &methods.RefreshStorageInfoBody{Res: &types.RefreshStorageInfoResponse{}}
}
