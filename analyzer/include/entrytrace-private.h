/* SPDX-License-Identifier: LGPL-2.1 */
#ifndef _ENTRYTRACE_PRIVATE_H
#define _ENTRYTRACE_PRIVATE_H
#include "entrytrace.h"
#endif
