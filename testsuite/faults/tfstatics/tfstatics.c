/*
 * tfstatics.c -- thirty statics for the fault campaign (testsuite/faults):
 * tf_static_NN holds NN, so a script reading all of them sums to 435.
 * A scenario unloads this module while a script is reading them.
 * Nothing else: the module only has to exist, with its DWARF.
 */
#include <linux/module.h>

static volatile long tf_static_00 __used = 0;
static volatile long tf_static_01 __used = 1;
static volatile long tf_static_02 __used = 2;
static volatile long tf_static_03 __used = 3;
static volatile long tf_static_04 __used = 4;
static volatile long tf_static_05 __used = 5;
static volatile long tf_static_06 __used = 6;
static volatile long tf_static_07 __used = 7;
static volatile long tf_static_08 __used = 8;
static volatile long tf_static_09 __used = 9;
static volatile long tf_static_10 __used = 10;
static volatile long tf_static_11 __used = 11;
static volatile long tf_static_12 __used = 12;
static volatile long tf_static_13 __used = 13;
static volatile long tf_static_14 __used = 14;
static volatile long tf_static_15 __used = 15;
static volatile long tf_static_16 __used = 16;
static volatile long tf_static_17 __used = 17;
static volatile long tf_static_18 __used = 18;
static volatile long tf_static_19 __used = 19;
static volatile long tf_static_20 __used = 20;
static volatile long tf_static_21 __used = 21;
static volatile long tf_static_22 __used = 22;
static volatile long tf_static_23 __used = 23;
static volatile long tf_static_24 __used = 24;
static volatile long tf_static_25 __used = 25;
static volatile long tf_static_26 __used = 26;
static volatile long tf_static_27 __used = 27;
static volatile long tf_static_28 __used = 28;
static volatile long tf_static_29 __used = 29;

static int __init tfstatics_init(void) { return 0; }
static void __exit tfstatics_exit(void) { }
module_init(tfstatics_init);
module_exit(tfstatics_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("thirty statics for tapc's fault campaign");
