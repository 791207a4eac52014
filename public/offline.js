// The offline page's texts and its retry (public/offline.html). The language: the one the player chose in the
// app (redux-persist's `persist:prefs`), else the browser's (th, lo -> la), else English.
(function () {
  var TEXTS = {
    th: {
      title: 'ไม่มีการเชื่อมต่ออินเทอร์เน็ต',
      text: 'กระเป๋าเงินต้องใช้อินเทอร์เน็ต ตรวจสอบเน็ตมือถือหรือ Wi-Fi แล้วลองอีกครั้ง',
      retry: 'ลองอีกครั้ง',
      lang: 'th',
    },
    la: {
      title: 'ບໍ່ມີການເຊື່ອມຕໍ່ອິນເຕີເນັດ',
      text: 'ກະເປົາເງິນຕ້ອງໃຊ້ອິນເຕີເນັດ. ກວດເບິ່ງອິນເຕີເນັດມືຖື ຫຼື Wi-Fi ແລ້ວລອງໃໝ່.',
      retry: 'ລອງໃໝ່',
      lang: 'lo',
    },
    en: {
      title: 'No connection',
      text: 'The wallet needs the internet. Check your mobile data or Wi-Fi, then try again.',
      retry: 'Try again',
      lang: 'en',
    },
  };

  function chosen() {
    try {
      var prefs = JSON.parse(localStorage.getItem('persist:prefs') || '{}');
      var locale = prefs.locale ? JSON.parse(prefs.locale) : null;
      if (TEXTS[locale]) return locale;
    } catch (e) {
      // no stored preference
    }
    var langs = navigator.languages && navigator.languages.length ? navigator.languages : [navigator.language || ''];
    for (var i = 0; i < langs.length; i++) {
      var base = String(langs[i]).toLowerCase().split('-')[0];
      if (base === 'th') return 'th';
      if (base === 'lo' || base === 'la') return 'la';
      if (base === 'en') return 'en';
    }
    return 'en';
  }

  var t = TEXTS[chosen()];
  document.documentElement.lang = t.lang;
  document.title = t.title;
  document.getElementById('offline-title').textContent = t.title;
  document.getElementById('offline-text').textContent = t.text;
  var retry = document.getElementById('offline-retry');
  retry.textContent = t.retry;
  // Reloading asks for the page the player wanted (this page answered its navigation).
  retry.addEventListener('click', function () {
    location.reload();
  });
})();
