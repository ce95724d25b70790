/*
 * test_identity.c - which disk a VMware disk uuid names: the rules both
 * runners share (identity.c), and Windows' device identifier descriptor.
 * Built for Linux and, under Wine, for Windows.
 */
#include <string.h>

#include "runner_int.h"
#include "unit.h"

static void uuid_forms(void)
{
	static const struct {
		const char *id, *uuid;
		bool match;
	} cases[] = {
		/* VMware's WWN forms of a disk uuid */
		{"wwn-0x6000c29a1b2c3d4e5f60718293a4b5c6",
		 "6000C29a-1b2c-3d4e-5f60-718293a4b5c6", true},
		{"scsi-36000c29a1b2c3d4e5f60718293a4b5c6",
		 "6000c29a1b2c3d4e5f60718293a4b5c6", true},
		{"naa.6000c29a1b2c3d4e5f60718293a4b5c6",
		 "6000C29A1B2C3D4E5F60718293A4B5C6", true},
		/* a 20-character virtio serial: the uuid's first digits */
		{"virtio-6000c29a1b2c3d4e5f60",
		 "6000c29a1b2c3d4e5f60718293a4b5c6", true},
		/* too short a token to tell, and another disk */
		{"virtio-6000c29a", "6000c29a1b2c3d4e5f60718293a4b5c6", false},
		{"wwn-0x6000c29a1b2c3d4e5f60718293a4b5c7",
		 "6000c29a1b2c3d4e5f60718293a4b5c6", false},
	};
	char hex[64], err[PB_ERRBUF_SIZE] = "";
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		CU_ASSERT_EQUAL_FATAL(runner_id_uuid_hex(hex, sizeof(hex),
							 cases[i].uuid, err),
				      PB_OK);
		CU_ASSERT_EQUAL(runner_id_matches(cases[i].id, hex),
				cases[i].match);
	}
	/* not a uuid: said, naming it */
	CU_ASSERT_EQUAL(runner_id_uuid_hex(hex, sizeof(hex), "disk-one", err),
			PB_ERR_USAGE);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "'uuid:disk-one'"));
	CU_ASSERT_EQUAL(runner_id_uuid_hex(hex, sizeof(hex), "6000c2", err),
			PB_ERR_USAGE);
}

/*
 * Windows' STORAGE_DEVICE_ID_DESCRIPTOR as a VMware virtual disk with
 * disk.EnableUUID=TRUE answers it: VPD page 0x83's designators, an NAA
 * (binary, type 3: the disk's uuid, 6000c29...) and a T10 vendor one
 * (ASCII, type 1), each STORAGE_IDENTIFIER padded to 8 bytes (NextOffset).
 * Little-endian, as Windows lays it out.
 */
static const uint8_t vmware_devid[] = {
	/* Version 1, Size 108, NumberOfIdentifiers 2 */
	0x01, 0, 0, 0, 108, 0, 0, 0, 2, 0, 0, 0,
	/* CodeSet 1 (binary), Type 3 (FCPH/NAA), IdentifierSize 16,
	 * NextOffset 32, Association 0 (the device) */
	0x01, 0, 0, 0, 0x03, 0, 0, 0, 16, 0, 32, 0, 0, 0, 0, 0, 0x60, 0x00,
	0xc2, 0x9a, 0x1b, 0x2c, 0x3d, 0x4e, 0x5f, 0x60, 0x71, 0x82, 0x93, 0xa4,
	0xb5, 0xc6,
	/* CodeSet 2 (ASCII), Type 1 (vendor), IdentifierSize 48,
	 * NextOffset 64, Association 0 */
	0x02, 0, 0, 0, 0x01, 0, 0, 0, 48, 0, 64, 0, 0, 0, 0, 0, 'V', 'M', 'w',
	'a', 'r', 'e', ' ', ' ', 'V', 'i', 'r', 't', 'u', 'a', 'l', ' ', 'd',
	'i', 's', 'k', ' ', ' ', ' ', ' ', '6', '0', '0', '0', 'c', '2', '9',
	'a', '1', 'b', '2', 'c', '3', 'd', '4', 'e', '5', 'f', '6', '0', '7',
	'1', '8', '2'};

static void windows_device_id_parsed(void)
{
	char ids[4][RUNNER_DEVID_LEN], hex[64];
	unsigned n;

	n = runner_devid_parse(ids, 4, vmware_devid, sizeof(vmware_devid));
	CU_ASSERT_EQUAL_FATAL(n, 2);
	CU_ASSERT_STRING_EQUAL(ids[0], "naa.6000c29a1b2c3d4e5f60718293a4b5c6");
	CU_ASSERT_STRING_EQUAL(ids[1], "t10.VMware  Virtual disk    "
				       "6000c29a1b2c3d4e5f607182");
	/* the uuid the harness passes names it; another uuid does not */
	runner_id_hex(hex, sizeof(hex), "6000C29a-1b2c-3d4e-5f60-718293a4b5c6");
	CU_ASSERT(runner_id_matches(ids[0], hex));
	runner_id_hex(hex, sizeof(hex), "6000C29a-1b2c-3d4e-5f60-718293a4b5c7");
	CU_ASSERT(!runner_id_matches(ids[0], hex));
	/* cut short: the identifiers that are whole, never past the end */
	CU_ASSERT_EQUAL(runner_devid_parse(ids, 4, vmware_devid, 44), 1);
	CU_ASSERT_EQUAL(runner_devid_parse(ids, 4, vmware_devid, 40), 0);
	CU_ASSERT_EQUAL(runner_devid_parse(ids, 4, vmware_devid, 8), 0);
	/* room for one */
	CU_ASSERT_EQUAL(
		runner_devid_parse(ids, 1, vmware_devid, sizeof(vmware_devid)),
		1);
}

static const struct pb_case cases[] = {
	PB_CASE(uuid_forms),
	PB_CASE(windows_device_id_parsed),
	PB_CASES_END,
};

const struct pb_suite suite_identity = {"identity", NULL, NULL, cases};
