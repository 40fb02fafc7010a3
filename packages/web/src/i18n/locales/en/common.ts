/** Strings shared by many screens. */
export const common = {
  cancel: "Cancel",
  close: "Close",
  save: "Save",
  retry: "Retry",
  delete: "Delete",
  loading: "Loading…",
  back: "Back",
  confirm: "Confirm",
  error_generic: "Something went wrong: {{message}}",
};
