/** English strings of Settings › Account's phone numbers (msisdn 3PIDs). */
export const account = {
  phone_title: "Phone numbers",
  phone_country: "Country code",
  phone_country_hint: "GB",
  phone_number: "Phone number",
  phone_add: "Send code",
  phone_sent: "We sent a text message to {{number}}. Enter the code from it.",
  phone_code: "Verification code",
  phone_verify: "Verify and add",
  phone_resend: "Send again",
  phone_cancel: "Cancel",
  phone_code_wrong: "That code is not right. Check the text message and try again.",
  phone_invalid: "Enter a country code and a phone number.",
  phone_added: "Phone number added.",
  phone_none: "No phone numbers added.",
  phone_remove: "Remove {{number}}",
};
