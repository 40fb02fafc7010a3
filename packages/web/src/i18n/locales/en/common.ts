/** Strings shared by many screens. */
export const common = {
  cancel: "Cancel",
  close: "Close",
  save: "Save",
  retry: "Retry",
  delete: "Delete",
  loading: "Loading…",
  back: "Back",
  back_to_rooms: "Back to rooms",
  confirm: "Confirm",
  error_generic: "Something went wrong: {{message}}",
};
