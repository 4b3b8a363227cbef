/*-------------------------------------------------------------------------
 *
 * profile_symbols.h
 *	  What an ELF binary can tell a profiler about its functions: symbol
 *	  tables, a symbol looked for, debug information (profile_symbols.c).
 *
 * Plain C99 with libc and <elf.h>, unit-tested on binaries the test
 * builds and strips.
 *
 * client/os/profile_symbols.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef PROFILE_SYMBOLS_H
#define PROFILE_SYMBOLS_H

#include <stdbool.h>
#include <stddef.h>

typedef struct ElfSymbols
{
	bool		has_symtab;		/* .symtab: every function, static ones too */
	int			symtab_functions;
	int			dynsym_functions;	/* .dynsym: exported functions only */
	bool		has_debug_info; /* .debug_info */
	bool		has_wanted;		/* the symbol asked for is a function of either */
} ElfSymbols;

/*
 * Read path's symbol tables; wanted may be NULL.  False, with errbuf,
 * when path is not a readable 64- or 32-bit ELF file of this machine's
 * byte order.
 */
extern bool prof_elf_symbols(const char *path, const char *wanted, ElfSymbols *out,
							 char *errbuf, size_t errlen);

#endif							/* PROFILE_SYMBOLS_H */
