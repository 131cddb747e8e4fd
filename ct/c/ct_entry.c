/* SPDX-License-Identifier: MIT */
/*
 * ct_entry.c -- lookup in the rendered registry of entry points.
 */
#include <string.h>
#include "ct_entry.h"

const struct ct_entry *ct_find_entry(const char *name)
{
    unsigned i;
    for (i = 0; i < ct_registry_count; i++) {
        if (strcmp(ct_registry[i].name, name) == 0) {
            return &ct_registry[i];
        }
    }
    return NULL;
}
