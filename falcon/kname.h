/* SPDX-License-Identifier: MIT */
/*
 * kname.h -- name pasting for the programs in falcon/, which are compiled
 * once per kernel.  The build passes -DKNAME=<name> (the kernel's prefix)
 * and -DKHEADER='"<name>.h"'; K(f) then names <name>_f.  The two
 * levels of macros make the preprocessor expand KNAME before pasting.
 */
#ifndef FALCON_KNAME_H
#define FALCON_KNAME_H

#ifndef KNAME
#error "compile with -DKNAME=<kernel name> -DKHEADER='\"<name>.h\"'"
#endif

#define FALCON_PASTE2(a, b) a##_##b
#define FALCON_PASTE(a, b) FALCON_PASTE2(a, b)
#define K(f) FALCON_PASTE(KNAME, f)

/* The kernel's name as a string literal. */
#define FALCON_STR2(a) #a
#define FALCON_STR(a) FALCON_STR2(a)

#endif
