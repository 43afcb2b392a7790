import '@vaadin/polymer-legacy-adapter/style-modules.js';
import '@vaadin/vertical-layout/src/vaadin-vertical-layout.js';
import '@vaadin/password-field/src/vaadin-password-field.js';
import '@vaadin/tooltip/src/vaadin-tooltip.js';
import '@vaadin/button/src/vaadin-button.js';
import 'Frontend/generated/jar-resources/disableOnClickFunctions.js';
import '@vaadin/app-layout/src/vaadin-app-layout.js';
import '@vaadin/icons/vaadin-iconset.js';
import '@vaadin/icon/src/vaadin-icon.js';
import '@vaadin/horizontal-layout/src/vaadin-horizontal-layout.js';
import '@vaadin/app-layout/src/vaadin-drawer-toggle.js';
import '@vaadin/side-nav/src/vaadin-side-nav.js';
import '@vaadin/side-nav/src/vaadin-side-nav-item.js';
import '@vaadin/combo-box/src/vaadin-combo-box.js';
import 'Frontend/generated/jar-resources/flow-component-renderer.js';
import 'Frontend/generated/jar-resources/comboBoxConnector.js';
import '@vaadin/multi-select-combo-box/src/vaadin-multi-select-combo-box.js';
import '@vaadin/text-field/src/vaadin-text-field.js';
import '@vaadin/grid/src/vaadin-grid.js';
import '@vaadin/grid/src/vaadin-grid-column.js';
import '@vaadin/grid/src/vaadin-grid-sorter.js';
import '@vaadin/checkbox/src/vaadin-checkbox.js';
import 'Frontend/generated/jar-resources/gridConnector.ts';
import 'Frontend/generated/jar-resources/vaadin-grid-flow-selection-column.js';
import '@vaadin/grid/src/vaadin-grid-column-group.js';
import 'Frontend/generated/jar-resources/lit-renderer.ts';
import '@vaadin/context-menu/src/vaadin-context-menu.js';
import 'Frontend/generated/jar-resources/contextMenuConnector.js';
import 'Frontend/generated/jar-resources/contextMenuTargetConnector.js';
import '@vaadin/notification/src/vaadin-notification.js';
import '@vaadin/date-time-picker/src/vaadin-date-time-picker.js';
import '@vaadin/date-picker/src/vaadin-date-picker.js';
import 'Frontend/generated/jar-resources/datepickerConnector.js';
import '@vaadin/time-picker/src/vaadin-time-picker.js';
import 'Frontend/generated/jar-resources/vaadin-time-picker/timepickerConnector.js';
import '@vaadin/radio-group/src/vaadin-radio-group.js';
import '@vaadin/radio-group/src/vaadin-radio-button.js';
import '@vaadin/dialog/src/vaadin-dialog.js';
import '@vaadin/integer-field/src/vaadin-integer-field.js';
import '@vaadin/vaadin-lumo-styles/color-global.js';
import '@vaadin/vaadin-lumo-styles/typography-global.js';
import '@vaadin/vaadin-lumo-styles/sizing.js';
import '@vaadin/vaadin-lumo-styles/spacing.js';
import '@vaadin/vaadin-lumo-styles/style.js';
import '@vaadin/vaadin-lumo-styles/vaadin-iconset.js';
import '@vaadin/common-frontend/ConnectionIndicator.js';
import 'Frontend/generated/jar-resources/ReactRouterOutletElement.tsx';

const loadOnDemand = (key) => {
  const pending = [];
  if (key === '8605a8d171cb1ed7051d5ba7df08fa543f7e6f005707540a4845cf12ef8adc18') {
    pending.push(import('./chunks/chunk-b1d2ad70f3ded4ac396b4142b9b397fe884845064b7c1c95608c410cfd445d1b.js'));
  }
  if (key === 'eff79241a5c94785aef018c1b8ea34dade3af2ee02dcff2aeb3202089aa4ef24') {
    pending.push(import('./chunks/chunk-67f9f3227adf448be4cdc4f65535dcf3c25f17b3688c0d8eeb2ff6d5c3eb4c00.js'));
  }
  if (key === '1241f265d14e4265056ef2d693d9c4264f2c0e6c62f75a86a221381f5fab3351') {
    pending.push(import('./chunks/chunk-ad74eec3b3a9ed4e46828c8364207ffeff9469b1e3ccbdc29b5d460e8e6c1099.js'));
  }
  if (key === 'e71ca4666656e67029a0cca971cd0a432b6f766fc6a2dd52e7b0208a2c102b98') {
    pending.push(import('./chunks/chunk-2a2680700ba9b58e8de78042fafe89da17ffd0c611e48a0e9f0ea7124758315d.js'));
  }
  if (key === 'e4410ca13530ef6c578243884ea2051b60a6e74a2e1cf03a69dc9cc73784e92c') {
    pending.push(import('./chunks/chunk-b1d2ad70f3ded4ac396b4142b9b397fe884845064b7c1c95608c410cfd445d1b.js'));
  }
  return Promise.all(pending);
}

window.Vaadin = window.Vaadin || {};
window.Vaadin.Flow = window.Vaadin.Flow || {};
window.Vaadin.Flow.loadOnDemand = loadOnDemand;
window.Vaadin.Flow.resetFocus = () => {
 let ae=document.activeElement;
 while(ae&&ae.shadowRoot) ae = ae.shadowRoot.activeElement;
 return !ae || ae.blur() || ae.focus() || true;
}