// With JavaScript, choosing a destination opens its itinerary at once;
// without it, the form's button submits the choice and the server redirects.
const picker = document.querySelector('[data-destination-picker]');
if (picker instanceof HTMLSelectElement) {
  picker.addEventListener('change', () => {
    if (picker.value !== '') {
      window.location.assign(`/itineraries/${encodeURIComponent(picker.value)}`);
    }
  });
}
