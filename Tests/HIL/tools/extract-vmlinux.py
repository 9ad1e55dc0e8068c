#!/usr/bin/env python3
"""Writes the uncompressed ELF kernel (vmlinux) out of a Debian bzImage (/boot/vmlinuz-*).

    extract-vmlinux.py BZIMAGE OUT

QEMU can boot that ELF directly through its PVH entry note (Debian sets CONFIG_PVH=y), which skips
the in-guest decompression: about 3 s saved per boot under TCG. Debian compresses its x86 kernels
with xz; the stream is found by its magic bytes. Standard library only.
"""
import lzma
import os
import sys

XZ_MAGIC = b"\xfd7zXZ\x00"
ELF_MAGIC = b"\x7fELF"


def main() -> int:
    if len(sys.argv) != 3:
        print("usage: " + __doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    src, out = sys.argv[1], sys.argv[2]
    with open(src, "rb") as f:
        data = f.read()
    start = data.find(XZ_MAGIC)
    while start >= 0:
        try:
            decompressor = lzma.LZMADecompressor(format=lzma.FORMAT_XZ)
            image = decompressor.decompress(data[start:])
        except lzma.LZMAError:
            image = b""
        if image.startswith(ELF_MAGIC):
            tmp = out + ".tmp"
            with open(tmp, "wb") as f:
                f.write(image)
            os.replace(tmp, out)
            return 0
        start = data.find(XZ_MAGIC, start + 1)
    print(f"extract-vmlinux: no xz-compressed ELF kernel found in {src}; boot the bzImage instead "
          "(HIL_PVH=0)", file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main())
