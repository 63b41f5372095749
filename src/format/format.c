/* augur — file and block headers, rank file names, mkdir -p. */
#include "format.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <xxhash.h>

#include "augur/error.h"
#include "varint.h"

void aug_filehdr_pack(uint8_t out[AUG_FILEHDR_SIZE], const aug_filehdr *h) {
  memset(out, 0, AUG_FILEHDR_SIZE);
  memcpy(out, AUG_FILE_MAGIC, 8);
  aug_put_le16(out + 8, h->major);
  aug_put_le16(out + 10, h->minor);
  aug_put_le32(out + 12, h->rank);
  aug_put_le32(out + 16, h->nranks);
  aug_put_le32(out + 20, h->flags);
  aug_put_le32(out + 28, XXH32(out, 28, 0));
}

int aug_filehdr_unpack(const uint8_t in[AUG_FILEHDR_SIZE], aug_filehdr *h, char *why, size_t n) {
  if (memcmp(in, AUG_FILE_MAGIC, 8) != 0) {
    snprintf(why, n, "bad file magic (expected \"%s\")", AUG_FILE_MAGIC);
    return AUGUR_E_FORMAT;
  }
  uint32_t want = aug_get_le32(in + 28), got = XXH32(in, 28, 0);
#ifdef FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION
  got = want; /* checksums would stop the fuzzer at the first header */
#endif
  if (want != got) {
    snprintf(why, n, "file header checksum mismatch (expected 0x%08x, got 0x%08x)", want, got);
    return AUGUR_E_CHECKSUM;
  }
  h->major = aug_get_le16(in + 8);
  h->minor = aug_get_le16(in + 10);
  h->rank = aug_get_le32(in + 12);
  h->nranks = aug_get_le32(in + 16);
  h->flags = aug_get_le32(in + 20);
  if (h->major != AUG_FORMAT_MAJOR) {
    snprintf(why, n, "format version %u.%u (this reader reads %d.x)", h->major, h->minor,
             AUG_FORMAT_MAJOR);
    return AUGUR_E_VERSION;
  }
  return AUGUR_OK;
}

void aug_blkhdr_pack(uint8_t out[AUG_BLKHDR_SIZE], const aug_blkhdr *h) {
  memset(out, 0, AUG_BLKHDR_SIZE);
  memcpy(out, AUG_BLK_MAGIC, 4);
  out[4] = h->kind;
  out[5] = h->codec;
  aug_put_le32(out + 8, h->thread);
  aug_put_le32(out + 12, h->count);
  aug_put_le32(out + 16, h->raw_size);
  aug_put_le32(out + 20, h->stored_size);
  aug_put_le64(out + 24, h->first_ns);
  aug_put_le64(out + 32, h->last_ns);
  aug_put_le64(out + 40, h->payload_hash);
  aug_put_le32(out + 48, h->parents);
  aug_put_le32(out + 52, XXH32(out, 52, 0));
}

int aug_blkhdr_unpack(const uint8_t in[AUG_BLKHDR_SIZE], aug_blkhdr *h, char *why, size_t n) {
  if (memcmp(in, AUG_BLK_MAGIC, 4) != 0) {
    snprintf(why, n, "bad block magic (expected \"%s\", got %02x %02x %02x %02x)", AUG_BLK_MAGIC,
             in[0], in[1], in[2], in[3]);
    return AUGUR_E_FORMAT;
  }
  uint32_t want = aug_get_le32(in + 52), got = XXH32(in, 52, 0);
#ifdef FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION
  got = want; /* checksums would stop the fuzzer at the first header */
#endif
  if (want != got) {
    snprintf(why, n, "block header checksum mismatch (expected 0x%08x, got 0x%08x)", want, got);
    return AUGUR_E_CHECKSUM;
  }
  h->kind = in[4];
  h->codec = in[5];
  h->thread = aug_get_le32(in + 8);
  h->count = aug_get_le32(in + 12);
  h->raw_size = aug_get_le32(in + 16);
  h->stored_size = aug_get_le32(in + 20);
  h->first_ns = aug_get_le64(in + 24);
  h->last_ns = aug_get_le64(in + 32);
  h->payload_hash = aug_get_le64(in + 40);
  h->parents = aug_get_le32(in + 48);
  if (h->kind != AUG_BLK_EVENTS && h->kind != AUG_BLK_DEFS && h->kind != AUG_BLK_OMP) {
    snprintf(why, n, "unknown block kind %u (expected 1, 2 or 3)", h->kind);
    return AUGUR_E_FORMAT;
  }
  if (h->codec != AUG_CODEC_RAW && h->codec != AUG_CODEC_ZSTD) {
    snprintf(why, n, "unknown codec %u (expected 0 or 1)", h->codec);
    return AUGUR_E_FORMAT;
  }
  if (h->raw_size > AUG_MAX_RAW_SIZE || h->count > AUG_MAX_BLOCK_RECORDS) {
    snprintf(why, n, "block too large (raw size %u, %u records; limits %u, %u)", h->raw_size,
             h->count, AUG_MAX_RAW_SIZE, AUG_MAX_BLOCK_RECORDS);
    return AUGUR_E_FORMAT;
  }
  if (h->parents > h->count) {
    snprintf(why, n, "%u parent records in a block of %u records", h->parents, h->count);
    return AUGUR_E_FORMAT;
  }
  if (h->codec == AUG_CODEC_RAW && h->stored_size != h->raw_size) {
    snprintf(why, n, "raw block with stored size %u != raw size %u", h->stored_size, h->raw_size);
    return AUGUR_E_FORMAT;
  }
  if (h->stored_size > AUG_MAX_RAW_SIZE + (AUG_MAX_RAW_SIZE >> 7) + 1024) {
    snprintf(why, n, "stored size %u too large", h->stored_size);
    return AUGUR_E_FORMAT;
  }
  return AUGUR_OK;
}

void aug_rank_file_name(char *out, size_t n, uint32_t rank, uint32_t nranks) {
  int width = 5;
  for (uint32_t m = nranks ? nranks - 1 : 0, d = 1; m >= 10; m /= 10) {
    d++;
    if ((int)d > width) width = (int)d;
  }
  snprintf(out, n, "rank-%0*u.evt", width, rank);
}

int aug_mkdir_p(const char *dir) {
  char path[4096];
  size_t len = strlen(dir);
  if (len == 0 || len >= sizeof path) {
    errno = ENAMETOOLONG;
    return -1;
  }
  memcpy(path, dir, len + 1);
  for (size_t i = 1; i <= len; i++) {
    if (path[i] != '/' && path[i] != '\0') continue;
    char c = path[i];
    path[i] = '\0';
    if (mkdir(path, 0777) != 0 && errno != EEXIST) return -1;
    path[i] = c;
  }
  struct stat st;
  if (stat(dir, &st) != 0) return -1;
  if (!S_ISDIR(st.st_mode)) {
    errno = ENOTDIR;
    return -1;
  }
  return 0;
}
