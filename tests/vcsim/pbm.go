// pbm.go - vCenter's storage policy service (SPBM) at /pbm, as much of it
// as a lab's policies need: the policies (vSAN's default, reserving
// nothing, and one reserving every byte, as labs make for thick disks on
// vSAN), a datastore's default policy, and the policy each disk has
// (PbmQueryAssociatedProfile on "virtualDiskId" "vm-N:key", answered from
// the profile its ReconfigVM spec named, or the datastore's default). The
// session is the vim25 one (its cookie). ESXi has no SPBM.
package main

import (
	"strconv"
	"strings"
	"time"

	"github.com/vmware/govmomi/pbm"
	"github.com/vmware/govmomi/pbm/methods"
	"github.com/vmware/govmomi/pbm/types"
	"github.com/vmware/govmomi/simulator"
	"github.com/vmware/govmomi/vim25/soap"
	vim "github.com/vmware/govmomi/vim25/types"
)

const (
	vsanDefaultPolicy = "aa6d5a82-1c88-45da-85d3-3d74b91a5bad"
	vsanThickPolicy   = "5b1a0d9e-7c1e-4d3c-9f3e-0000000000aa"
)

// vsanPolicy: a requirement profile with vSAN's object space reservation
// (capability VSAN.proportionalCapacity, in percent).
func vsanPolicy(id, name string, reserve int32) *types.PbmCapabilityProfile {
	return &types.PbmCapabilityProfile{
		PbmProfile: types.PbmProfile{
			ProfileId:       types.PbmProfileId{UniqueId: id},
			Name:            name,
			CreationTime:    time.Now(),
			LastUpdatedTime: time.Now(),
		},
		ProfileCategory: "REQUIREMENT",
		ResourceType:    types.PbmProfileResourceType{ResourceType: "STORAGE"},
		Constraints: &types.PbmCapabilitySubProfileConstraints{
			SubProfiles: []types.PbmCapabilitySubProfile{{
				Name: "VSAN sub-profile",
				Capability: []types.PbmCapabilityInstance{{
					Id: types.PbmCapabilityMetadataUniqueId{
						Namespace: "VSAN", Id: "proportionalCapacity"},
					Constraint: []types.PbmCapabilityConstraintInstance{{
						PropertyInstance: []types.PbmCapabilityPropertyInstance{{
							Id: "proportionalCapacity", Value: reserve}},
					}},
				}},
			}},
		},
	}
}

var policies = []*types.PbmCapabilityProfile{
	vsanPolicy(vsanDefaultPolicy, "vSAN Default Storage Policy", 0),
	vsanPolicy(vsanThickPolicy, "Thick 100%", 100),
}

type pbmService struct {
	vim.ManagedObjectReference
}

func (s *pbmService) PbmRetrieveServiceContent(req *types.PbmRetrieveServiceContent) soap.HasFault {
	return &methods.PbmRetrieveServiceContentBody{
		Res: &types.PbmRetrieveServiceContentResponse{
			Returnval: types.PbmServiceInstanceContent{
				AboutInfo: types.PbmAboutInfo{Name: "PBM", Version: "2.0",
					InstanceUuid: "df09f335-be97-4f33-8c27-315faaaad6fc"},
				SessionManager: vim.ManagedObjectReference{Type: "PbmSessionManager", Value: "SessionManager"},
				CapabilityMetadataManager: vim.ManagedObjectReference{
					Type: "PbmCapabilityMetadataManager", Value: "CapabilityMetadataManager"},
				ProfileManager:    vim.ManagedObjectReference{Type: "PbmProfileProfileManager", Value: "ProfileManager"},
				ComplianceManager: vim.ManagedObjectReference{Type: "PbmComplianceManager", Value: "complianceManager"},
				PlacementSolver:   vim.ManagedObjectReference{Type: "PbmPlacementSolver", Value: "placementSolver"},
			},
		},
	}
}

type pbmProfiles struct {
	vim.ManagedObjectReference
}

func (m *pbmProfiles) PbmQueryProfile(req *types.PbmQueryProfile) soap.HasFault {
	body := &methods.PbmQueryProfileBody{Res: &types.PbmQueryProfileResponse{}}
	for _, p := range policies {
		if p.ResourceType == req.ResourceType &&
			(req.ProfileCategory == "" || p.ProfileCategory == req.ProfileCategory) {
			body.Res.Returnval = append(body.Res.Returnval, p.ProfileId)
		}
	}
	return body
}

func (m *pbmProfiles) PbmRetrieveContent(req *types.PbmRetrieveContent) soap.HasFault {
	body := &methods.PbmRetrieveContentBody{}
	if len(req.ProfileIds) == 0 {
		body.Fault_ = simulator.Fault("", &vim.InvalidRequest{})
		return body
	}
	var out []types.BasePbmProfile
	for _, id := range req.ProfileIds {
		found := false
		for _, p := range policies {
			if p.ProfileId.UniqueId == id.UniqueId {
				out = append(out, p)
				found = true
			}
		}
		if !found {
			body.Fault_ = simulator.Fault("", &vim.InvalidArgument{InvalidProperty: "profileId"})
			return body
		}
	}
	body.Res = &types.PbmRetrieveContentResponse{Returnval: out}
	return body
}

func (m *pbmProfiles) PbmQueryDefaultRequirementProfile(req *types.PbmQueryDefaultRequirementProfile) soap.HasFault {
	body := &methods.PbmQueryDefaultRequirementProfileBody{
		Res: &types.PbmQueryDefaultRequirementProfileResponse{}}
	ds, ok := simulator.Map.Get(vim.ManagedObjectReference{
		Type: "Datastore", Value: req.Hub.HubId}).(*simulator.Datastore)
	if ok && ds.Name == vsanName {
		body.Res.Returnval = &types.PbmProfileId{UniqueId: vsanDefaultPolicy}
	}
	return body
}

// PbmQueryAssociatedProfile of a disk: "virtualDiskId", "vm-N:key".
func (m *pbmProfiles) PbmQueryAssociatedProfile(req *types.PbmQueryAssociatedProfile) soap.HasFault {
	body := &methods.PbmQueryAssociatedProfileBody{
		Res: &types.PbmQueryAssociatedProfileResponse{}}
	if req.Entity.ObjectType != "virtualDiskId" {
		return body
	}
	i := strings.LastIndex(req.Entity.Key, ":")
	if i < 0 {
		body.Fault_ = simulator.Fault("", &vim.InvalidArgument{InvalidProperty: "key"})
		return body
	}
	key, _ := strconv.Atoi(req.Entity.Key[i+1:])
	vm := vmOf(vim.ManagedObjectReference{Type: "VirtualMachine", Value: req.Entity.Key[:i]})
	if vm == nil {
		body.Fault_ = simulator.Fault("", &vim.InvalidArgument{InvalidProperty: "key"})
		return body
	}
	for _, d := range vm.Config.Hardware.Device {
		disk, ok := d.(*vim.VirtualDisk)
		if !ok || disk.Key != int32(key) {
			continue
		}
		if b, ok := disk.Backing.(*vim.VirtualDiskFlatVer2BackingInfo); ok {
			if id, ok := diskPolicy[b.FileName]; ok {
				body.Res.Returnval = []types.PbmProfileId{{UniqueId: id}}
			}
		}
	}
	return body
}

// installPBM: SPBM beside vim25, on vCenter only.
func installPBM(s *simulator.Service) {
	if esxMode {
		return
	}
	r := simulator.NewRegistry()
	r.Namespace = pbm.Namespace
	r.Path = pbm.Path
	r.Put(&pbmService{pbm.ServiceInstance})
	r.Put(&pbmProfiles{vim.ManagedObjectReference{Type: "PbmProfileProfileManager", Value: "ProfileManager"}})
	s.RegisterSDK(r)
}
