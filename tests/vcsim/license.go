// license.go - the free ESXi licence (-license free). The vSphere
// Hypervisor edition makes the API read-only: reads work, and every call
// that changes something faults RestrictedVersion, "Current license or
// ESXi version prohibits execution of the requested operation." (pyVmomi
// issue 625, rbvmomi users of knife-esx, Ansible's vmware modules).
// LicenseManager.licenses shows the edition: editionKey "esxBasic" (ESXi
// 5 to 7, as William Lam's scripts check it) or "esx.hypervisor.free"
// (vSphere 8 Hypervisor).
package main

import (
	"bytes"
	"io"
	"net/http"

	"github.com/vmware/govmomi/simulator"
	"github.com/vmware/govmomi/vim25/types"
)

// writes are the calls a free licence refuses (of those provbench and
// its tests make, and their neighbours).
var writes = []string{
	"ReconfigVM_Task", "PowerOnVM_Task", "PowerOffVM_Task", "ShutdownGuest",
	"RebootGuest", "ResetVM_Task", "CreateSnapshot_Task",
	"CreateVirtualDisk_Task", "DeleteVirtualDisk_Task",
	"DeleteDatastoreFile_Task", "StartProgramInGuest",
	"InitiateFileTransferToGuest", "MakeDirectoryInGuest",
	"DeleteFileInGuest", "DeleteDirectoryInGuest",
	"ChangeFileAttributesInGuest", "TerminateProcessInGuest",
}

func installFreeLicense() {
	for _, v := range []string{"LicenseManager", "ha-license-manager"} {
		lm, ok := simulator.Map.Get(types.ManagedObjectReference{
			Type: "LicenseManager", Value: v}).(*simulator.LicenseManager)
		if !ok {
			continue
		}
		lm.Licenses = []types.LicenseManagerLicenseInfo{{
			LicenseKey: "AAAAA-BBBBB-CCCCC-DDDDD-EEEEE",
			EditionKey: "esxBasic",
			Name:       "VMware vSphere 7 Hypervisor",
			Total:      0,
			Used:       2,
			CostUnit:   "cpuPackage",
		}}
	}
}

const restricted = `<?xml version="1.0" encoding="UTF-8"?>
<soapenv:Envelope xmlns:soapenc="http://schemas.xmlsoap.org/soap/encoding/"
 xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/"
 xmlns:xsd="http://www.w3.org/2001/XMLSchema"
 xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
<soapenv:Body>
<soapenv:Fault><faultcode>ServerFaultCode</faultcode><faultstring>Current license or ESXi version prohibits execution of the requested operation.</faultstring><detail><RestrictedVersionFault xmlns="urn:vim25" xsi:type="RestrictedVersion"></RestrictedVersionFault></detail></soapenv:Fault>
</soapenv:Body>
</soapenv:Envelope>
`

func restrictWrites(inner http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			inner.ServeHTTP(w, r)
			return
		}
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body))
		for _, op := range writes {
			if bytes.Contains(body, []byte("<"+op+">")) ||
				bytes.Contains(body, []byte("<"+op+" ")) {
				w.Header().Set("Content-Type", "text/xml; charset=utf-8")
				w.WriteHeader(http.StatusInternalServerError)
				io.WriteString(w, restricted)
				return
			}
		}
		inner.ServeHTTP(w, r)
	})
}
