#!/usr/bin/python3
"""pyvmomi_cycles.py - the pyVmomi side of bench/soap-vs-pyvmomi.

Log in, find the VM, then N cycles of "add a lazy disk, read it back,
remove it", written the way pyVmomi's own samples do it (WaitForTask,
the VM's config.hardware.device). Prints: cycles, seconds.

usage: pyvmomi_cycles.py VM N SIZE_MIB   (PROVBENCH_URL/USERNAME/PASSWORD)
"""
import os
import ssl
import sys
import time
from urllib.parse import urlparse

from pyVim.connect import SmartConnect, Disconnect
from pyVim.task import WaitForTask
from pyVmomi import vim


def main():
    vm_name, n, size_mib = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    u = urlparse(os.environ["PROVBENCH_URL"])
    ctx = ssl._create_unverified_context()  # the fixture is self-signed
    si = SmartConnect(host=u.hostname, port=u.port or 443,
                      user=os.environ["PROVBENCH_USERNAME"],
                      pwd=os.environ["PROVBENCH_PASSWORD"], sslContext=ctx)
    content = si.RetrieveContent()
    view = content.viewManager.CreateContainerView(
        content.rootFolder, [vim.VirtualMachine], True)
    vm = next(v for v in view.view if v.name == vm_name)
    view.Destroy()

    t0 = time.monotonic()
    for _ in range(n):
        devices = vm.config.hardware.device
        ctl = next(d for d in devices
                   if isinstance(d, vim.vm.device.VirtualSCSIController))
        used = {d.unitNumber for d in devices
                if d.controllerKey == ctl.key}
        unit = next(u for u in range(16) if u != 7 and u not in used)
        disk = vim.vm.device.VirtualDisk(
            key=-100, controllerKey=ctl.key, unitNumber=unit,
            capacityInKB=size_mib * 1024,
            backing=vim.vm.device.VirtualDisk.FlatVer2BackingInfo(
                diskMode="persistent", thinProvisioned=False,
                eagerlyScrub=False, fileName=""))
        add = vim.vm.device.VirtualDeviceSpec(
            operation="add", fileOperation="create", device=disk)
        WaitForTask(vm.ReconfigVM_Task(
            vim.vm.ConfigSpec(deviceChange=[add])))
        new = next(d for d in vm.config.hardware.device
                   if isinstance(d, vim.vm.device.VirtualDisk)
                   and d.controllerKey == ctl.key and d.unitNumber == unit)
        assert not new.backing.thinProvisioned
        rm = vim.vm.device.VirtualDeviceSpec(
            operation="remove", fileOperation="destroy", device=new)
        WaitForTask(vm.ReconfigVM_Task(vim.vm.ConfigSpec(deviceChange=[rm])))
    print("cycles %d seconds %.6f" % (n, time.monotonic() - t0))
    Disconnect(si)


if __name__ == "__main__":
    main()
