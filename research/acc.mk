# The accuracy-check rules shared by the research prototypes' Makefiles
# (fold_fast, faithful_fold, m3_small_table): the output folder, the
# accuracy check built with gcc and with clang, their identity (acc prints a
# HASH line of its outputs), ACC (the compiler arguments that build it; a
# control adds its -DCONTROL_ flag before them) and CONTROL_CAUGHT, the
# recipe line that runs a deliberately broken build and fails unless acc
# rejects it.  The including Makefile sets CC, CFLAGS, OUT, SRC (the
# check's dependencies), LIBS and, where it uses the shared check of a
# double-interface prototype (acc_double.c), ACC_SRC and ACC_FLAGS.

ACC_SRC ?= acc.c
ACC = $(CFLAGS) $(ACC_FLAGS) $(ACC_SRC) $(LIBS)

$(OUT):
	mkdir -p $@
$(OUT)/acc_bin: $(SRC) | $(OUT)
	$(CC) -o $@ $(ACC)
$(OUT)/acc_clang: $(SRC) | $(OUT)
	clang -o $@ $(ACC)

.PHONY: compilers
compilers: $(OUT)/acc_bin $(OUT)/acc_clang
	@a=$$($(OUT)/acc_bin 100000 5 | grep HASH); b=$$($(OUT)/acc_clang 100000 5 | grep HASH); echo "gcc:   $$a"; echo "clang: $$b"; \
	if [ "$$a" = "$$b" ]; then echo "gcc == clang: yes"; else echo "gcc == clang: NO"; exit 1; fi

# $(call CONTROL_CAUGHT,binary in OUT,acc arguments,label,what to quote from acc's output (a grep pattern))
CONTROL_CAUGHT = @if r=$$($(OUT)/$(1) $(2)); then echo "CONTROL $(3): NOT caught"; exit 1; else echo "CONTROL $(3): caught, $$(echo "$$r" | grep '$(4)')"; fi
