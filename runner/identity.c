/*
 * identity.c - which disk a VMware disk uuid names: the rules for reading
 * a by-id name, a serial or a device identifier (SCSI VPD page 0x83) the
 * same way on Linux and on Windows, and the parser of Windows'
 * STORAGE_DEVICE_ID_DESCRIPTOR (kept here, with its own bytes, so that
 * Linux's unit tests read it too).
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "runner_int.h"

/* Keep the hex digits of s, lower-cased. */
size_t runner_id_hex(char *out, size_t len, const char *s)
{
	size_t n = 0;

	for (; *s && n + 1 < len; s++)
		if (isxdigit((unsigned char)*s))
			out[n++] = (char)tolower((unsigned char)*s);
	out[n] = '\0';
	return n;
}

/* Lower-case s without separators, for substring matching. */
static void squash(char *out, size_t len, const char *s)
{
	size_t n = 0;

	for (; *s && n + 1 < len; s++)
		if (*s != '-' && *s != '_' && *s != ':' && *s != ' ' &&
		    *s != '.')
			out[n++] = (char)tolower((unsigned char)*s);
	out[n] = '\0';
}

/*
 * Does the identifier id (a by-id name, a serial, a WWID) name the disk
 * with this uuid? VMware shows the backing uuid as the WWN
 * ("wwn-0x6000c29...", "scsi-36000c29...", "naa.6000c29..."); virtio-blk
 * serials hold at most 20 characters, so a serial token of 16 or more hex
 * digits that starts the uuid also matches.
 */
bool runner_id_matches(const char *id, const char *uuid_hex)
{
	char sq[512], tok[128];
	const char *last;
	size_t n;

	squash(sq, sizeof(sq), id);
	if (strstr(sq, uuid_hex))
		return true;
	last = strrchr(id, '-');
	last = last ? last + 1 : id;
	if (strrchr(last, '_'))
		last = strrchr(last, '_') + 1;
	squash(tok, sizeof(tok), last);
	n = strlen(tok);
	if (n < 16 || n != strspn(tok, "0123456789abcdef"))
		return false;
	return strncmp(uuid_hex, tok, n) == 0;
}

enum pb_error runner_id_uuid_hex(char *hex, size_t len, const char *uuid,
				 char *errbuf)
{
	if (runner_id_hex(hex, len, uuid) < 8 ||
	    strspn(uuid, "0123456789abcdefABCDEF-: ") != strlen(uuid))
		return pb_fail(errbuf, PB_ERR_USAGE,
			       "--target: 'uuid:%s' is not a disk UUID (hex "
			       "digits, optionally with dashes)",
			       uuid);
	return PB_OK;
}

/* little-endian fields of the Windows structures */
static uint32_t le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

static uint16_t le16(const uint8_t *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

unsigned runner_devid_parse(char (*ids)[RUNNER_DEVID_LEN], unsigned max,
			    const uint8_t *buf, size_t len)
{
	/* STORAGE_DEVICE_ID_DESCRIPTOR: Version, Size, NumberOfIdentifiers
	 * (ULONGs), then STORAGE_IDENTIFIERs: CodeSet, Type (ULONGs),
	 * IdentifierSize, NextOffset (USHORTs), Association (ULONG),
	 * Identifier[] */
	static const char *const naa = "naa.", *const t10 = "t10.",
				 *const eui = "eui.";
	unsigned n = 0, count, k;
	size_t off = 12, end;

	if (len < 12)
		return 0;
	end = le32(buf + 4) < len ? le32(buf + 4) : len;
	count = le32(buf + 8);
	for (k = 0; k < count && n < max && off + 16 <= end; k++) {
		uint32_t code = le32(buf + off), type = le32(buf + off + 4);
		uint16_t size = le16(buf + off + 8),
			 next = le16(buf + off + 10);
		const uint8_t *id = buf + off + 16;
		size_t i, o;

		if (off + 16 + size > end)
			break;
		/* Type: 1 vendor, 2 EUI-64, 3 FCPH (NAA), 8 SCSI name;
		 * CodeSet 1 binary, 2 ASCII, 3 UTF-8 */
		if (code == 1 && (type == 2 || type == 3) && size &&
		    size * 2 + 5 <= RUNNER_DEVID_LEN) {
			o = (size_t)snprintf(ids[n], RUNNER_DEVID_LEN, "%s",
					     type == 3 ? naa : eui);
			for (i = 0; i < size; i++)
				o += (size_t)snprintf(ids[n] + o,
						      RUNNER_DEVID_LEN - o,
						      "%02x", id[i]);
			n++;
		} else if ((code == 2 || code == 3) && size) {
			o = (size_t)snprintf(ids[n], RUNNER_DEVID_LEN, "%s",
					     type == 1 ? t10 : "");
			for (i = 0;
			     i < size && id[i] && o + 1 < RUNNER_DEVID_LEN; i++)
				ids[n][o++] = (char)id[i];
			ids[n][o] = '\0';
			n++;
		}
		if (!next)
			break;
		off += next;
	}
	return n;
}
