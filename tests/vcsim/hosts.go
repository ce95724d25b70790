// hosts.go - each ESXi host of the vCenter model serves guest file
// transfers itself, on a listener of its own with a certificate of its
// own, as real hosts do: vCenter's InitiateFileTransfer{To,From}Guest
// name the VM's host (its inventory name, HostSystem.name) in the URL,
// and a client that pins certificates must pin the host's, which vCenter
// reports in summary.config.sslThumbprint (govmomi guest/file_manager.go
// TransferURL does exactly this). The inventory name need not resolve;
// the host's management vmknic address is in
// config.virtualNicManagerInfo.netConfig (nicType "management", the
// selected vnic), which is where govmomi goes instead.
package main

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"log"
	"math/big"
	"net"
	"net/http"
	"strconv"
	"time"

	"github.com/vmware/govmomi/simulator"
	"github.com/vmware/govmomi/vim25/types"
)

// hostPort is the transfer listener's port of each host, by moref.
var hostPort = map[string]int{}

// selfSigned makes a host certificate of its own (ESXi generates one at
// install time, CN = its name).
func selfSigned(name string) tls.Certificate {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		log.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(time.Now().UnixNano()),
		Subject:      pkix.Name{CommonName: name, Organization: []string{"VMware"}},
		NotBefore:    time.Now().Add(-time.Hour),
		NotAfter:     time.Now().Add(48 * time.Hour),
		KeyUsage:     x509.KeyUsageDigitalSignature | x509.KeyUsageKeyEncipherment,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		DNSNames:     []string{name},
		IPAddresses:  []net.IP{net.ParseIP("127.0.0.1")},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		log.Fatal(err)
	}
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key}
}

// managementNIC is a host's netConfig with one management vmknic at addr.
func managementNIC(addr string) []types.VirtualNicManagerNetConfig {
	return []types.VirtualNicManagerNetConfig{{
		NicType:            "management",
		MultiSelectAllowed: true,
		CandidateVnic: []types.HostVirtualNic{{
			Device:    "vmk0",
			Key:       "management.key-vim.host.VirtualNic-vmk0",
			Portgroup: "Management Network",
			Spec: types.HostVirtualNicSpec{
				Ip: &types.HostIpConfig{IpAddress: addr,
					SubnetMask: "255.0.0.0"},
				Mac:       "00:50:56:6e:a1:01",
				Portgroup: "Management Network",
				Mtu:       1500,
			},
		}},
		SelectedVnic: []string{"management.key-vim.host.VirtualNic-vmk0"},
	}}
}

// startHostListeners gives every host its transfer listener, certificate
// and thumbprint; the first host takes the inventory name rename, if any.
func startHostListeners(rename string) {
	for _, obj := range simulator.Map.All("HostSystem") {
		h := obj.(*simulator.HostSystem)
		if rename != "" && h.Name == "DC0_H0" {
			h.Name = rename
			h.Summary.Config.Name = rename
		}
		cert := selfSigned(h.Name)
		ln, err := tls.Listen("tcp", "127.0.0.1:0", &tls.Config{
			Certificates: []tls.Certificate{cert},
			NextProtos:   []string{"http/1.1"},
		})
		if err != nil {
			log.Fatal(err)
		}
		mux := http.NewServeMux()
		mux.HandleFunc("/guestFile", serveTransfer(h.Self.Value))
		go http.Serve(ln, mux)
		hostPort[h.Self.Value] = ln.Addr().(*net.TCPAddr).Port
		h.Summary.Config.SslThumbprint = thumbprint(cert.Certificate[0])
		if h.Config != nil && h.Config.VirtualNicManagerInfo != nil {
			h.Config.VirtualNicManagerInfo.NetConfig = managementNIC("127.0.0.1")
		}
	}
}

// hostAuthority is what a transfer URL names: the VM's host and the port
// it serves on (vCenter), or "*" (ESXi: the server called, on 443).
func hostAuthority(vm *benchVM) (string, string) {
	if esxMode || vm.Runtime.Host == nil {
		return "*:443", ""
	}
	h := simulator.Map.Get(*vm.Runtime.Host).(*simulator.HostSystem)
	return net.JoinHostPort(h.Name, strconv.Itoa(hostPort[h.Self.Value])),
		h.Self.Value
}
